import CSegmentationKernels

/// Pass 2 of loading a network: the steps in order, and a slot for every tensor (or a place in
/// its concatenation's slot, or its residual's), with the lifetimes from which
/// `ActivationPlanner` gives each slot a place in one arena shared with the tensors it is never
/// alive with.
struct SegmentationStepPlanner {
    typealias Tensor = SegmentationNetwork.Tensor

    private let checked: CheckedSegmentationGraph
    private let choice: ConvolutionChoice
    private let concatenated: [String: (into: String, channel: Int)]
    private let concatOutputs: Set<String>
    private(set) var steps: [SegmentationNetwork.Step] = []
    private(set) var lifetimes: [ActivationPlanner.Lifetime] = []
    private(set) var placed: [String: Tensor] = [:]
    /// The graph's input, with its slot.
    private(set) var input: Tensor
    /// The step each tensor is last read by.
    private var lastRead: [String: Int] = [:]
    /// The node being planned; -1 before the first.
    private var index = -1

    private var fusion: SegmentationFusion { choice.fusion }

    init(choice: ConvolutionChoice) {
        self.checked = choice.checked
        self.choice = choice
        self.concatenated = choice.concatenationsInPlace()
        self.concatOutputs = Set(choice.checked.graph.nodes.filter { $0.op == "concat" }.map(\.output))
        self.input = choice.checked.input
    }

    /// Plans every node that is not absorbed by another, in the graph's order.
    mutating func plan() throws(ProcessingError) {
        let graph = checked.graph
        input.slot = take(input.count)
        placed[graph.input.name] = input
        for position in graph.nodes.indices where !fusion.absorbed.contains(position) {
            for name in fusion.reads(position, inputs: checked.inputs[position]) { lastRead[name] = position }
        }
        for (position, node) in graph.nodes.enumerated() where !fusion.absorbed.contains(position) {
            index = position
            try planStep(node)
        }
        if let output = placed[checked.output.name] { lifetimes[output.slot].last = Int.max }
    }

    private mutating func take(_ count: Int) -> Int {
        lifetimes.append(.init(count: count, first: index, last: index))
        return lifetimes.count - 1
    }

    private mutating func planStep(_ node: SegmentationGraph.Node) throws(ProcessingError) {
        let names = fusion.reads(index, inputs: checked.inputs[index])
        let ins = names.compactMap { placed[$0] }
        guard ins.count == names.count else { throw CheckedSegmentationGraph.fail("node \(index): an input was not placed") }
        // An absorbed add's output is written by its convolution.
        let outputName = fusion.residuals[index].map { checked.graph.nodes[$0.add].output } ?? node.output
        let out = place(outputName)
        placed[outputName] = out
        switch node.op {
        case "conv2d": steps.append(.conv(try convolution(node, inputs: ins, output: out)))
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

    /// Where the current node writes `outputName`.
    private mutating func place(_ outputName: String) -> Tensor {
        var out = checked.shapes[outputName] ?? checked.input
        // A residual that this convolution reads last (and not as an input) is overwritten by
        // the sum in place: each output value reads its residual value just before. At 320 x
        // 320 that is a 64-channel tensor (26 MB) fewer in the arena at its peak.
        if let residualName = fusion.residuals[index]?.residual, lastRead[residualName] == index,
           residualName != checked.graph.input.name, concatenated[residualName] == nil, !concatOutputs.contains(residualName),
           concatenated[outputName] == nil, placed[outputName] == nil,
           !fusion.sources(index, inputs: checked.inputs[index]).contains(where: { $0.name == residualName }),
           let residual = placed[residualName], residual.offset == 0, residual.count == out.count {
            out.slot = residual.slot
        } else if let (into, channel) = concatenated[outputName], let whole = checked.shapes[into] {
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
        return out
    }

    private mutating func convolution(_ node: SegmentationGraph.Node, inputs ins: [Tensor],
                                      output out: Tensor) throws(ProcessingError) -> SegmentationNetwork.Convolution {
        let kernel = node.kernel?.first ?? 3, dilation = node.dilation?.first ?? 1
        let residual = fusion.residuals[index] == nil ? nil : ins.last
        let sources = residual == nil ? ins : Array(ins.dropLast())
        let upsampled = fusion.sources(index, inputs: checked.inputs[index]).map(\.upsampled)
        var step = SegmentationNetwork.Convolution(
            input: sources[0], second: sources.count > 1 ? sources[1] : nil, residual: residual,
            output: out, weight: 0, bias: try checked.parameter(node.bias, shape: [out.channels]),
            kernel: kernel, dilation: dilation, relu: node.activation == "relu")
        step.inputUpsampled = upsampled.first ?? false
        step.secondUpsampled = upsampled.count > 1 && upsampled[1]
        step.weight = try checked.parameter(node.weight, shape: [out.channels, step.inputChannels, kernel, kernel])
        let tooMany = CheckedSegmentationGraph.fail("node \(index): \(step.inputChannels) -> \(out.channels) channels is too many")
        switch choice.method(index) {
        case .direct: break
        case .packed:
            guard sk_winograd4_packed_count(Int32(step.inputChannels), Int32(out.channels)) > 0 else { throw tooMany }
            step.packed = 0  // its offset is given by `Weights`
        case .compact:
            step.compact = 0
            let layout = step.scratchLayout
            guard layout.input > 0, layout.worker > 0 else { throw tooMany }
            // The transformed input and the two workers' scratch, alive for this step only.
            step.scratch = take(step.scratchFloats)
        case .int8:
            guard step.quantizedInputFloats > 0, sk_q8_packed_bytes(Int32(step.inputChannels), Int32(out.channels)) > 0 else {
                throw tooMany
            }
            step.quantized = 0  // its offsets are given by `Weights`
            step.weightScales = 0
            // The quantized input, alive for this step only.
            step.scratch = take(step.quantizedInputFloats)
        }
        return step
    }
}
