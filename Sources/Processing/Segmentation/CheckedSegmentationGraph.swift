/// Pass 1 of loading a network: every node checked against what the kernels support and against
/// the weights file, with the shape of every tensor and the names each node reads. A graph that
/// passes cannot make a kernel read outside a tensor or the weights.
struct CheckedSegmentationGraph {
    typealias Tensor = SegmentationNetwork.Tensor

    let graph: SegmentationGraph
    /// The graph's input, not yet given a slot.
    let input: Tensor
    /// The shape of every tensor, the input's included (slots not yet given).
    private(set) var shapes: [String: Tensor] = [:]
    /// The names each node reads, indexed like `graph.nodes`.
    private(set) var inputs: [[String]] = []
    private(set) var multiplyAdds = 0
    private let weightBytes: Int

    /// The graph's output; `init` has checked that there is one, of the shape its tensor has.
    var output: SegmentationGraph.Output { graph.outputs[0] }

    static func fail(_ reason: String) -> ProcessingError { .invalidModel(reason) }

    init(graph: SegmentationGraph, weightBytes: Int) throws(ProcessingError) {
        guard graph.format == "sticker-nn-graph", graph.version == 1 else {
            throw Self.fail("format \(graph.format) version \(graph.version), expected sticker-nn-graph version 1")
        }
        guard graph.weights.dtype == "f32le" else { throw Self.fail("weights dtype \(graph.weights.dtype), expected f32le") }
        guard graph.weights.bytes == weightBytes else {
            throw Self.fail("weights file has \(weightBytes) bytes, the graph says \(graph.weights.bytes)")
        }
        let input = try Self.shape(graph.input.name, in: graph)
        guard input.channels == 3, graph.input.shape == [1, 3, input.height, input.width] else {
            throw Self.fail("input shape \(graph.input.shape), expected [1, 3, H, W]")
        }
        self.graph = graph
        self.input = input
        self.weightBytes = weightBytes
        shapes[graph.input.name] = input
        for (index, node) in graph.nodes.enumerated() { try check(node, at: index) }
        guard let output = graph.outputs.first, let tensor = shapes[output.name],
              output.shape == [1, tensor.channels, tensor.height, tensor.width]
        else { throw Self.fail("the graph's first output is missing or has the wrong shape") }
    }

    /// The float index of a parameter in the weights file: it must be inside the file, aligned to
    /// a float, with the count its shape says.
    func parameter(_ name: String?, shape expected: [Int]) throws(ProcessingError) -> Int {
        guard let name, let info = graph.params[name] else { throw Self.fail("missing parameter \(name ?? "(none)")") }
        guard info.shape == expected else { throw Self.fail("parameter \(name) has shape \(info.shape), expected \(expected)") }
        let count = expected.reduce(1, *)
        guard info.count == count, info.offset >= 0, info.offset % 4 == 0,
              info.offset <= weightBytes, count <= (weightBytes - info.offset) / 4
        else {
            throw Self.fail("parameter \(name) (offset \(info.offset), \(info.count) floats) is not inside the \(weightBytes)-byte weights file")
        }
        return info.offset / 4
    }

    /// A tensor's declared shape: N = 1, positive sizes, bounded.
    private static func shape(_ name: String, in graph: SegmentationGraph) throws(ProcessingError) -> Tensor {
        guard let dims = graph.tensors[name] else { throw fail("tensor \(name) has no shape") }
        guard dims.count == 4, dims[0] == 1, dims[1...].allSatisfy({ $0 > 0 && $0 <= 1 << 16 }),
              dims[1] * dims[2] * dims[3] <= SegmentationNetwork.maximumTensorCount
        else { throw fail("tensor \(name) has shape \(dims), expected [1, C, H, W] of a sane size") }
        return Tensor(slot: -1, channels: dims[1], height: dims[2], width: dims[3])
    }

    private func read(_ name: String?) throws(ProcessingError) -> Tensor {
        guard let name, let tensor = shapes[name] else { throw Self.fail("tensor \(name ?? "(none)") is read before it is written") }
        return tensor
    }

    private mutating func check(_ node: SegmentationGraph.Node, at index: Int) throws(ProcessingError) {
        let inputNames = node.inputs ?? (node.input.map { [$0] } ?? [])
        let ins = try inputNames.map { (name: String) throws(ProcessingError) -> Tensor in try read(name) }
        guard shapes[node.output] == nil else { throw Self.fail("tensor \(node.output) is written twice") }
        let out = try Self.shape(node.output, in: graph)
        multiplyAdds += try checkOperation(node, at: index, inputs: ins, output: out)
        shapes[node.output] = out
        inputs.append(inputNames)
    }

    /// Checks a node's op against what the kernels support; returns its multiply-adds.
    private func checkOperation(_ node: SegmentationGraph.Node, at index: Int, inputs ins: [Tensor],
                                output out: Tensor) throws(ProcessingError) -> Int {
        let what = "node \(index) (\(node.op) -> \(node.output))"
        switch node.op {
        case "conv2d":
            guard ins.count == 1, let kernel = node.kernel, kernel.count == 2, kernel[0] == kernel[1],
                  kernel[0] == 1 || kernel[0] == 3, node.stride ?? [1, 1] == [1, 1], node.group ?? 1 == 1,
                  let dilation = node.dilation, dilation.count == 2, dilation[0] == dilation[1], dilation[0] >= 1,
                  node.pad == Array(repeating: kernel[0] == 3 ? dilation[0] : 0, count: 4),
                  kernel[0] == 3 || dilation[0] == 1,
                  node.activation == nil || node.activation == "relu",
                  out.height == ins[0].height, out.width == ins[0].width
            else { throw Self.fail("\(what): only 3x3 (padding = dilation) and 1x1 convolutions of stride 1 and group 1 are supported") }
            _ = try parameter(node.weight, shape: [out.channels, ins[0].channels, kernel[0], kernel[0]])
            _ = try parameter(node.bias, shape: [out.channels])
            return out.count * ins[0].channels * kernel[0] * kernel[0]
        case "maxpool2d":
            guard ins.count == 1, node.kernel == [2, 2], node.stride == [2, 2], node.pad ?? [0, 0, 0, 0] == [0, 0, 0, 0],
                  node.ceilMode == true, out.channels == ins[0].channels,
                  out.height == (ins[0].height + 1) / 2, out.width == (ins[0].width + 1) / 2
            else { throw Self.fail("\(what): only 2x2 stride-2 ceil-mode pooling is supported") }
        case "resize_bilinear":
            guard ins.count == 1, node.coordinateMode == "half_pixel", node.size == [out.height, out.width],
                  out.channels == ins[0].channels
            else { throw Self.fail("\(what): only half-pixel bilinear resizing of whole planes is supported") }
        case "concat":
            guard ins.count >= 1, node.axis == 1,
                  ins.allSatisfy({ $0.height == out.height && $0.width == out.width }),
                  ins.reduce(0, { $0 + $1.channels }) == out.channels
            else { throw Self.fail("\(what): channel concatenation shapes do not add up") }
        case "add":
            guard ins.count == 2, ins.allSatisfy({ $0.channels == out.channels && $0.height == out.height && $0.width == out.width })
            else { throw Self.fail("\(what): add needs two inputs of the output's shape") }
        case "sigmoid":
            guard ins.count == 1, ins[0].count == out.count, ins[0].channels == out.channels
            else { throw Self.fail("\(what): sigmoid needs one input of the output's shape") }
        default:
            throw Self.fail("\(what): unsupported op \(node.op)")
        }
        return 0
    }
}
