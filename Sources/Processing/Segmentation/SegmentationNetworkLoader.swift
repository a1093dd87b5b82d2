import CSegmentationKernels

/// Loading a network: checks a graph against the weights file, plans its steps and activation
/// memory, and makes the weights the steps read. `SegmentationNetwork` is what comes out; this
/// is the work of its initialiser, kept apart so that the class reads as what it runs.
///
/// Loading validates everything the kernels rely on (every parameter inside the weights file,
/// every shape consistent with its op), so a bad file is a thrown `ProcessingError.invalidModel`
/// and never a crash; chooses how each convolution runs (`SegmentationNetwork.ConvolutionMethod`);
/// fuses what the Winograd convolutions can do on the fly (`SegmentationFusion`: concatenations,
/// 2x resizes, residual adds); plans the activation memory (each tensor gets a place in one arena
/// that it shares with tensors it is never alive with, `ActivationPlanner`); and makes the weights
/// (`SegmentationNetwork.Weights`: packed, compact or as they are).
struct SegmentationNetworkLoader {
    typealias Tensor = SegmentationNetwork.Tensor
    typealias Step = SegmentationNetwork.Step
    typealias Convolution = SegmentationNetwork.Convolution

    let inputWidth: Int, inputHeight: Int
    let multiplyAdds: Int
    let kernels: ConvolutionKernels
    let weights: SegmentationNetwork.Weights
    let steps: [Step]
    let slotOffsets: [Int]
    let workspaceOffset: Int, workspaceFloats: Int
    let activationFloats: Int
    let inputSlot: Int
    let output: Tensor

    /// Whether a Winograd F(4x4, 3x3) convolution runs from compact weights rather than packed ones:
    /// on planes of at most 48 x 48 pixels (144 tiles) with at least 128 x 128 channel pairs. There
    /// its packed weights (144 bytes a kernel) are large next to the products they feed, and are
    /// streamed from memory once per tile row: u2net's layers of 40 x 40 and below hold 29 M of its
    /// 44 M parameters, 464 MB packed against 58 MB compact, and ran at a quarter of the products'
    /// rate of the 320 x 320 layers. None of u2netp's layers qualify (64 channels at most), so its
    /// outputs are unchanged.
    /// A dilated 3x3 convolution runs that way too, on the tall plane of its subplanes
    /// (`sk_dilated_tall_size`), when they are at least 5 pixels wide: u2net's dilations 2 and 4
    /// at 20 x 20 (47.6 -> ~20 and 44.6 -> ~31 ms a prediction against the direct kernel); at
    /// dilation 8 (3-pixel subplanes), or 4 at 10 x 10, the tiles are mostly padding and direct
    /// is as fast or faster (C harness over the kernels, one core).
    static func runsCompact(inputs: Int, outputs: Int, height: Int, width: Int, dilation: Int = 1) -> Bool {
        guard height <= 48, width <= 48, inputs * outputs >= 128 * 128 else { return false }
        return dilation == 1 || (width + dilation - 1) / dilation >= 5
    }

    init(graph: SegmentationGraph, weightFile data: UnsafeRawBufferPointer, kernels wanted: ConvolutionKernels,
         keepsDirectWeights: Bool) throws(ProcessingError) {
        let kernels = wanted.isSupported ? wanted : .default
        func fail(_ reason: String) -> ProcessingError { .invalidModel(reason) }
        guard graph.format == "sticker-nn-graph", graph.version == 1 else {
            throw fail("format \(graph.format) version \(graph.version), expected sticker-nn-graph version 1")
        }
        guard graph.weights.dtype == "f32le" else { throw fail("weights dtype \(graph.weights.dtype), expected f32le") }
        guard graph.weights.bytes == data.count else {
            throw fail("weights file has \(data.count) bytes, the graph says \(graph.weights.bytes)")
        }
        // Parameters: inside the file, aligned to a float, count matching the shape.
        func parameter(_ name: String?, shape expected: [Int]) throws(ProcessingError) -> Int {
            guard let name, let info = graph.params[name] else { throw fail("missing parameter \(name ?? "(none)")") }
            guard info.shape == expected else { throw fail("parameter \(name) has shape \(info.shape), expected \(expected)") }
            let count = expected.reduce(1, *)
            guard info.count == count, info.offset >= 0, info.offset % 4 == 0,
                  info.offset <= data.count, count <= (data.count - info.offset) / 4
            else { throw fail("parameter \(name) (offset \(info.offset), \(info.count) floats) is not inside the \(data.count)-byte weights file") }
            return info.offset / 4
        }

        // Tensors: N = 1, positive sizes, bounded.
        var defined: [String: Tensor] = [:]
        func shape(_ name: String) throws(ProcessingError) -> Tensor {
            guard let dims = graph.tensors[name] else { throw fail("tensor \(name) has no shape") }
            guard dims.count == 4, dims[0] == 1, dims[1...].allSatisfy({ $0 > 0 && $0 <= 1 << 16 }),
                  dims[1] * dims[2] * dims[3] <= SegmentationNetwork.maximumTensorCount
            else { throw fail("tensor \(name) has shape \(dims), expected [1, C, H, W] of a sane size") }
            return Tensor(slot: -1, channels: dims[1], height: dims[2], width: dims[3])
        }
        func read(_ name: String?) throws(ProcessingError) -> Tensor {
            guard let name, let tensor = defined[name] else { throw fail("tensor \(name ?? "(none)") is read before it is written") }
            return tensor
        }

        let input = try shape(graph.input.name)
        guard input.channels == 3, graph.input.shape == [1, 3, input.height, input.width] else {
            throw fail("input shape \(graph.input.shape), expected [1, 3, H, W]")
        }
        defined[graph.input.name] = input

        // Pass 1: check every node.
        var macs = 0
        struct Checked { var inputs: [String] }
        var checked: [Checked] = []
        for (index, node) in graph.nodes.enumerated() {
            let inputNames = node.inputs ?? (node.input.map { [$0] } ?? [])
            let ins = try inputNames.map { (name: String) throws(ProcessingError) -> Tensor in try read(name) }
            guard defined[node.output] == nil else { throw fail("tensor \(node.output) is written twice") }
            let out = try shape(node.output)
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
                else { throw fail("\(what): only 3x3 (padding = dilation) and 1x1 convolutions of stride 1 and group 1 are supported") }
                _ = try parameter(node.weight, shape: [out.channels, ins[0].channels, kernel[0], kernel[0]])
                _ = try parameter(node.bias, shape: [out.channels])
                macs += out.count * ins[0].channels * kernel[0] * kernel[0]
            case "maxpool2d":
                guard ins.count == 1, node.kernel == [2, 2], node.stride == [2, 2], node.pad ?? [0, 0, 0, 0] == [0, 0, 0, 0],
                      node.ceilMode == true, out.channels == ins[0].channels,
                      out.height == (ins[0].height + 1) / 2, out.width == (ins[0].width + 1) / 2
                else { throw fail("\(what): only 2x2 stride-2 ceil-mode pooling is supported") }
            case "resize_bilinear":
                guard ins.count == 1, node.coordinateMode == "half_pixel", node.size == [out.height, out.width],
                      out.channels == ins[0].channels
                else { throw fail("\(what): only half-pixel bilinear resizing of whole planes is supported") }
            case "concat":
                guard ins.count >= 1, node.axis == 1,
                      ins.allSatisfy({ $0.height == out.height && $0.width == out.width }),
                      ins.reduce(0, { $0 + $1.channels }) == out.channels
                else { throw fail("\(what): channel concatenation shapes do not add up") }
            case "add":
                guard ins.count == 2, ins.allSatisfy({ $0.channels == out.channels && $0.height == out.height && $0.width == out.width })
                else { throw fail("\(what): add needs two inputs of the output's shape") }
            case "sigmoid":
                guard ins.count == 1, ins[0].count == out.count, ins[0].channels == out.channels
                else { throw fail("\(what): sigmoid needs one input of the output's shape") }
            default:
                throw fail("\(what): unsupported op \(node.op)")
            }
            defined[node.output] = out
            checked.append(Checked(inputs: inputNames))
        }
        guard let outputInfo = graph.outputs.first, let outputTensor = defined[outputInfo.name],
              outputInfo.shape == [1, outputTensor.channels, outputTensor.height, outputTensor.width]
        else { throw fail("the graph's first output is missing or has the wrong shape") }

        // F(4x4, 3x3) computes outputs in panels of 16 channels and its transforms cost per input
        // and output channel: for u2netp's 64 -> 1 side outputs and its 3 -> 64 first layer the
        // direct kernel is 2-3x faster (4.3 against 12.7 ms, 4.7 against 8.6 ms at 320 x 320).
        let winograd4 = kernels.hasWinograd
        func runsByWinograd4(_ index: Int) -> Bool {
            let node = graph.nodes[index]
            return winograd4 && node.op == "conv2d" && node.kernel == [3, 3] && node.dilation == [1, 1]
                && (defined[node.output]?.channels ?? 0) >= 8
                && (checked[index].inputs.first.flatMap { defined[$0] }?.channels ?? 0) >= 8
        }
        let fusion = SegmentationFusion(nodes: graph.nodes, inputs: checked.map(\.inputs),
                                        shapes: defined.mapValues { ($0.height, $0.width) }, graphOutput: outputInfo.name,
                                        fusable: runsByWinograd4)

        // Of those, the layers on planes of few tiles with many channels run from compact weights
        // (`method`).
        let compact = kernels.hasWinograd && sk_winograd4c_supported(kernels.rawValue) == 1
        func method(_ index: Int) -> SegmentationNetwork.ConvolutionMethod {
            let node = graph.nodes[index]
            guard let out = defined[node.output] else { return .direct }
            if let dilation = node.dilation?.first, dilation > 1, node.kernel == [3, 3], compact,
               let inputs = checked[index].inputs.first.flatMap({ defined[$0] })?.channels {
                return Self.runsCompact(inputs: inputs, outputs: out.channels, height: out.height, width: out.width, dilation: dilation)
                    ? .compact : .direct
            }
            guard runsByWinograd4(index) else { return .direct }
            let inputs = fusion.sources(index, inputs: checked[index].inputs).reduce(0) { $0 + (defined[$1.name]?.channels ?? 0) }
            return compact && Self.runsCompact(inputs: inputs, outputs: out.channels, height: out.height, width: out.width)
                ? .compact : .packed
        }

        // Concatenations in place: an input of a concatenation that nothing else concatenates
        // (and that is not the graph's input or itself a concatenation) is written by its own node
        // straight into its channels of the concatenation's slot, so the concatenation copies
        // nothing (u2netp's concatenations moved ~90 MB per prediction).
        var concatenated: [String: (into: String, channel: Int)] = [:]
        let concatOutputs = Set(graph.nodes.filter { $0.op == "concat" }.map(\.output))
        for (position, node) in graph.nodes.enumerated() where node.op == "concat" && !fusion.absorbed.contains(position) {
            var channel = 0
            let names = checked[position].inputs
            for name in names {
                if name != graph.input.name, !concatOutputs.contains(name), concatenated[name] == nil,
                   names.filter({ $0 == name }).count == 1 {
                    concatenated[name] = (node.output, channel)
                }
                channel += defined[name]?.channels ?? 0
            }
        }

        // Pass 2: slots. Every tensor gets its own slot (or a place in its concatenation's), a
        // place in one arena shared with the tensors it is never alive with (`ActivationPlanner`).
        var lifetimes: [ActivationPlanner.Lifetime] = []
        var index = -1
        func take(_ count: Int) -> Int {
            lifetimes.append(.init(count: count, first: index, last: index))
            return lifetimes.count - 1
        }
        var placed: [String: Tensor] = [:]
        var inputTensor = input
        inputTensor.slot = take(input.count)
        placed[graph.input.name] = inputTensor
        var lastRead: [String: Int] = [:]
        for position in graph.nodes.indices where !fusion.absorbed.contains(position) {
            for name in fusion.reads(position, inputs: checked[position].inputs) { lastRead[name] = position }
        }
        var steps: [Step] = []
        for (position, node) in graph.nodes.enumerated() where !fusion.absorbed.contains(position) {
            index = position
            let names = fusion.reads(index, inputs: checked[index].inputs)
            let ins = names.compactMap { placed[$0] }
            guard ins.count == names.count else { throw fail("node \(index): an input was not placed") }
            // An absorbed add's output is written by its convolution.
            let outputName = fusion.residuals[index].map { graph.nodes[$0.add].output } ?? node.output
            var out = defined[outputName] ?? input
            // A residual that this convolution reads last (and not as an input) is overwritten by
            // the sum in place: each output value reads its residual value just before. At 320 x
            // 320 that is a 64-channel tensor (26 MB) fewer in the arena at its peak.
            if let residualName = fusion.residuals[index]?.residual, lastRead[residualName] == index,
               residualName != graph.input.name, concatenated[residualName] == nil, !concatOutputs.contains(residualName),
               concatenated[outputName] == nil, placed[outputName] == nil,
               !fusion.sources(index, inputs: checked[index].inputs).contains(where: { $0.name == residualName }),
               let residual = placed[residualName], residual.offset == 0, residual.count == out.count {
                out.slot = residual.slot
            } else if let (into, channel) = concatenated[outputName], let whole = defined[into] {
                // The concatenation's slot is taken by the first of its inputs to be written.
                if placed[into] == nil {
                    var concatenation = whole
                    concatenation.slot = take(whole.count)
                    placed[into] = concatenation
                }
                out.slot = placed[into]?.slot ?? -1
                out.offset = channel * out.height * out.width
            } else if let concatenation = placed[outputName] {
                out.slot = concatenation.slot
            } else {
                out.slot = take(out.count)
            }
            placed[outputName] = out
            switch node.op {
            case "conv2d":
                let kernel = node.kernel?.first ?? 3, dilation = node.dilation?.first ?? 1
                let residual = fusion.residuals[index] == nil ? nil : ins.last
                let sources = residual == nil ? ins : Array(ins.dropLast())
                let upsampled = fusion.sources(index, inputs: checked[index].inputs).map(\.upsampled)
                var step = Convolution(input: sources[0], second: sources.count > 1 ? sources[1] : nil, residual: residual,
                                       output: out, weight: 0, bias: try parameter(node.bias, shape: [out.channels]),
                                       kernel: kernel, dilation: dilation, relu: node.activation == "relu")
                step.inputUpsampled = upsampled.first ?? false
                step.secondUpsampled = upsampled.count > 1 && upsampled[1]
                step.weight = try parameter(node.weight, shape: [out.channels, step.inputChannels, kernel, kernel])
                switch method(index) {
                case .direct: break
                case .packed:
                    guard sk_winograd4_packed_count(Int32(step.inputChannels), Int32(out.channels)) > 0
                    else { throw fail("node \(index): \(step.inputChannels) -> \(out.channels) channels is too many") }
                    step.packed = 0  // its offset is given by `Weights`
                case .compact:
                    step.compact = 0
                    let layout = step.scratchLayout
                    guard layout.input > 0, layout.worker > 0
                    else { throw fail("node \(index): \(step.inputChannels) -> \(out.channels) channels is too many") }
                    // The transformed input and the two workers' scratch, alive for this step only.
                    step.scratch = take(step.scratchFloats)
                }
                steps.append(.conv(step))
            case "maxpool2d": steps.append(.maxPool(input: ins[0], output: out))
            case "resize_bilinear": steps.append(.resize(input: ins[0], output: out))
            case "concat": steps.append(.concat(inputs: ins, output: out))
            case "add": steps.append(.add(ins[0], ins[1], output: out))
            default: steps.append(.sigmoid(input: ins[0], output: out))
            }
            for name in Set(names) {
                if let slot = placed[name]?.slot { lifetimes[slot].last = max(lifetimes[slot].last, index) }
            }
        }
        if let output = placed[outputInfo.name] { lifetimes[output.slot].last = Int.max }
        let plan = ActivationPlanner.plan(lifetimes)

        // What the steps read of the file, in the form they read it.
        let weights = try SegmentationNetwork.Weights(steps: &steps, file: data, keepsDirectWeights: keepsDirectWeights)

        self.inputWidth = input.width
        self.inputHeight = input.height
        self.multiplyAdds = macs
        self.kernels = kernels
        self.weights = weights
        self.steps = steps
        self.slotOffsets = plan.offsets
        let workspaceCount = steps.reduce(0) { largest, step in
            guard case let .conv(conv) = step, conv.method == .packed else { return largest }
            return max(largest, sk_winograd4_workspace(Int32(conv.inputChannels), Int32(conv.output.channels)))
        }
        // The Winograd scratch lives at the arena's end (64-byte aligned, like every slot): one for
        // each of the two workers that share a layer's rows (`SharedRows`).
        self.workspaceOffset = plan.arenaCount
        self.workspaceFloats = (max(16, workspaceCount) + 15) / 16 * 16
        self.activationFloats = plan.arenaCount + 2 * workspaceFloats
        self.inputSlot = inputTensor.slot
        self.output = placed[outputInfo.name] ?? inputTensor
    }

}
