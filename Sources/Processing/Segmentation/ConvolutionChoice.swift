import CSegmentationKernels
import Foundation

/// How each convolution of a checked graph runs (`SegmentationNetwork.ConvolutionMethod`), and
/// which nodes the Winograd convolutions absorb (`SegmentationFusion`).
struct ConvolutionChoice {
    let checked: CheckedSegmentationGraph
    let fusion: SegmentationFusion
    private let winograd4: Bool
    private let compact: Bool
    /// The convolutions that run in int8 (none in float32).
    private let int8: Set<Int>

    init(checked: CheckedSegmentationGraph, kernels: ConvolutionKernels, precision: InferencePrecision = .fp32) {
        self.checked = checked
        let winograd4 = kernels.hasWinograd
        self.winograd4 = winograd4
        self.compact = winograd4 && sk_winograd4c_supported(kernels.rawValue) == 1
        let int8 = precision == .int8 ? Self.runInt8(checked) : []
        self.int8 = int8
        fusion = SegmentationFusion(nodes: checked.graph.nodes, inputs: checked.inputs,
                                    shapes: checked.shapes.mapValues { ($0.height, $0.width) },
                                    graphOutput: checked.output.name,
                                    fusable: { int8.contains($0) || Self.runsByWinograd4($0, in: checked, winograd4: winograd4) })
    }

    /// The convolutions int8 can run: 3x3 ones with at least 8 input and 8 output channels whose
    /// input is never negative (made by ReLUs, and pools, resizes, concatenations and sums of such),
    /// since activations are quantized to unsigned bytes. That leaves float32 the first layer (the
    /// normalised photo is signed) and the side outputs (one channel, straight into the mask).
    private static func runInt8(_ checked: CheckedSegmentationGraph) -> Set<Int> {
        var nonNegative: Set<String> = []
        var runs: Set<Int> = []
        for (index, node) in checked.graph.nodes.enumerated() {
            let inputs = checked.inputs[index]
            let allNonNegative = !inputs.isEmpty && inputs.allSatisfy(nonNegative.contains)
            switch node.op {
            case "conv2d":
                if node.activation == "relu" { nonNegative.insert(node.output) }
                let isConcat = inputs.first.map { name in checked.graph.nodes.contains { $0.output == name && $0.op == "concat" } } ?? false
                let dbg = ProcessInfo.processInfo.environment["Q8_DEBUG"] ?? ""
                if dbg == "noconcat" && isConcat { break }
                if dbg == "concatonly" && !isConcat { break }
                if allNonNegative, node.kernel == [3, 3], (checked.shapes[node.output]?.channels ?? 0) >= 8,
                   (inputs.first.flatMap { checked.shapes[$0] }?.channels ?? 0) >= 8 {
                    runs.insert(index)
                }
            case "sigmoid": nonNegative.insert(node.output)
            default: if allNonNegative { nonNegative.insert(node.output) }
            }
        }
        return runs
    }

    /// F(4x4, 3x3) computes outputs in panels of 16 channels and its transforms cost per input
    /// and output channel: for u2netp's 64 -> 1 side outputs and its 3 -> 64 first layer the
    /// direct kernel is 2-3x faster (4.3 against 12.7 ms, 4.7 against 8.6 ms at 320 x 320).
    private static func runsByWinograd4(_ index: Int, in checked: CheckedSegmentationGraph, winograd4: Bool) -> Bool {
        let node = checked.graph.nodes[index]
        return winograd4 && node.op == "conv2d" && node.kernel == [3, 3] && node.dilation == [1, 1]
            && (checked.shapes[node.output]?.channels ?? 0) >= 8
            && (checked.inputs[index].first.flatMap { checked.shapes[$0] }?.channels ?? 0) >= 8
    }

    /// Of the Winograd convolutions (and the dilated ones), those on planes of few tiles with many
    /// channels run from compact weights (`SegmentationNetworkLoader.runsCompact`).
    func method(_ index: Int) -> SegmentationNetwork.ConvolutionMethod {
        let node = checked.graph.nodes[index]
        guard let out = checked.shapes[node.output] else { return .direct }
        if int8.contains(index) { return .int8 }
        if let dilation = node.dilation?.first, dilation > 1, node.kernel == [3, 3], compact,
           let inputs = checked.inputs[index].first.flatMap({ checked.shapes[$0] })?.channels {
            return SegmentationNetworkLoader.runsCompact(inputs: inputs, outputs: out.channels, height: out.height,
                                                         width: out.width, dilation: dilation)
                ? .compact : .direct
        }
        guard Self.runsByWinograd4(index, in: checked, winograd4: winograd4) else { return .direct }
        let inputs = fusion.sources(index, inputs: checked.inputs[index]).reduce(0) { $0 + (checked.shapes[$1.name]?.channels ?? 0) }
        return compact && SegmentationNetworkLoader.runsCompact(inputs: inputs, outputs: out.channels, height: out.height,
                                                                width: out.width)
            ? .compact : .packed
    }

    /// Concatenations in place: an input of a concatenation that nothing else concatenates (and
    /// that is not the graph's input or itself a concatenation) is written by its own node
    /// straight into its channels of the concatenation's slot, so the concatenation copies
    /// nothing (u2netp's concatenations moved ~90 MB per prediction). Tensor -> (concatenation,
    /// first channel).
    func concatenationsInPlace() -> [String: (into: String, channel: Int)] {
        var concatenated: [String: (into: String, channel: Int)] = [:]
        let graph = checked.graph
        let concatOutputs = Set(graph.nodes.filter { $0.op == "concat" }.map(\.output))
        for (position, node) in graph.nodes.enumerated() where node.op == "concat" && !fusion.absorbed.contains(position) {
            var channel = 0
            let names = checked.inputs[position]
            for name in names {
                if name != graph.input.name, !concatOutputs.contains(name), concatenated[name] == nil,
                   names.filter({ $0 == name }).count == 1 {
                    concatenated[name] = (node.output, channel)
                }
                channel += checked.shapes[name]?.channels ?? 0
            }
        }
        return concatenated
    }
}
