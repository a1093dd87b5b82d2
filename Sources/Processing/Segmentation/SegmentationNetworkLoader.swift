import CSegmentationKernels

/// Loading a network: checks a graph against the weights file (`CheckedSegmentationGraph`), plans
/// its steps and activation memory (`SegmentationStepPlanner`), and makes the weights the steps
/// read. `SegmentationNetwork` is what comes out; this is the work of its initialiser, kept apart
/// so that the class reads as what it runs.
///
/// Loading validates everything the kernels rely on (every parameter inside the weights file,
/// every shape consistent with its op), so a bad file is a thrown `ProcessingError.invalidModel`
/// and never a crash; chooses how each convolution runs (`ConvolutionChoice`);
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
    let precision: InferencePrecision
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
         precision: InferencePrecision, keepsDirectWeights: Bool) throws(ProcessingError) {
        let kernels = wanted.isSupported ? wanted : .default
        let checked = try CheckedSegmentationGraph(graph: graph, weightBytes: data.count)
        var planner = SegmentationStepPlanner(choice: ConvolutionChoice(checked: checked, kernels: kernels, precision: precision))
        try planner.plan()
        let plan = ActivationPlanner.plan(planner.lifetimes)

        // What the steps read of the file, in the form they read it.
        var steps = planner.steps
        let weights = try SegmentationNetwork.Weights(steps: &steps, file: data, keepsDirectWeights: keepsDirectWeights)

        self.inputWidth = checked.input.width
        self.inputHeight = checked.input.height
        self.multiplyAdds = checked.multiplyAdds
        self.kernels = kernels
        self.precision = precision
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
        self.inputSlot = planner.input.slot
        self.output = planner.placed[checked.output.name] ?? planner.input
    }
}
