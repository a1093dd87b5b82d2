import CSegmentationKernels
import Foundation
import Synchronization

/// A U²-Net segmentation network (rembg's u2net or u2netp, exported by
/// `Benchmarks/cutout/export_u2netp_weights.py`) run natively on the CPU: on the calling thread,
/// with a second thread taking part of each large layer's rows while the batch has a spare core
/// (`SpareCores`, `SharedRows`; the same floats either way). The model is a value: a graph and its
/// weights; both models run from the same code.
///
/// Where to read on: `SegmentationNetworkLoader` (checking a graph, choosing how each convolution
/// runs, fusing, planning the activation arena), `SegmentationNetworkWeights` (what is kept of the
/// weights file, in which form), `SegmentationNetworkSteps` (the steps and how a convolution runs
/// on the kernels); this file prepares the input and runs the steps.
///
/// How the convolutions run (`ConvolutionMethod`): 3x3 convolutions of dilation 1 with at least 8
/// input and 8 output channels by Winograd F(4x4, 3x3) (4x fewer multiply-adds than direct), with
/// weights transformed once at load (`sk_winograd4_pack`) on large planes, and on planes of at most
/// 48 x 48 with many channels (u2net's deep layers) from half-precision weights transformed at
/// every call (`sk_winograd4c_*`), as are dilated ones there (on their subplanes); the rest
/// directly (`sk_conv3x3`, `sk_conv1x1`), faster there than any Winograd. None of u2netp's layers
/// take the half-precision path, so its outputs are those of the float32 path.
///
/// Cost (one core of the shared 2-core AMD EPYC Zen 4 dev VM, AVX-512, thread CPU time, medians,
/// Benchmarks/README.md "u2net on our kernels"): u2netp at 320 x 320 (19.8 G multiply-adds) ~0.165
/// s a prediction, u2net (58.6 G) ~0.49 s (2.9-3.0x), onnxruntime 1 thread 1.13 s for u2net;
/// loading u2net 0.15 s, its weights kept 139 MB (176 MB on disk). Outputs agree with the direct
/// kernels to 8.3e-5 (u2netp) and 2.1e-4 (u2net), with onnxruntime on the same input to 1e-4 and
/// 1.9e-4. Debug builds compile the kernels with -O2 too (Package.swift); unoptimised, one
/// prediction took a minute.
///
/// Sharing: the class is immutable (every stored property is a `let` value) and `Sendable` without
/// exceptions; the weights are only ever read, and each `predict` call borrows an arena of its own
/// (`ScratchBuffers`, kept between calls and lent to a photo's decode in between), so concurrent
/// calls from several tasks are safe.
public final class SegmentationNetwork: Sendable {
    /// The network's input size (u2net and u2netp: 320 x 320).
    public let inputWidth: Int
    public let inputHeight: Int
    /// Multiply-adds of one prediction (from the graph's shapes).
    public let multiplyAdds: Int
    /// The instruction set the convolutions run on (the widest this CPU has unless told otherwise).
    public let kernels: ConvolutionKernels
    /// The arithmetic of the 3x3 convolutions (int8 runs those it can, `ConvolutionChoice`).
    public let precision: InferencePrecision

    /// What the steps read of the weights file (`Weights`).
    private let weights: Weights
    private let steps: [Step]
    /// Where each slot (one a tensor) starts in the activation arena, in floats.
    private let slotOffsets: [Int]
    /// Where the scratch of the Winograd 3x3 convolutions starts in the arena (after every slot),
    /// and its size: a second one follows for the second worker of a shared layer.
    private let workspaceOffset: Int
    private let workspaceFloats: Int
    /// Floats of activation memory one prediction uses (the arena, scratch included), borrowed
    /// from `ScratchBuffers.shared` for each prediction.
    let activationFloats: Int
    private let inputSlot: Int
    private let output: Tensor

    /// Bytes of weights kept (`Weights`).
    var weightBytes: Int { weights.bytes }

    /// rembg's normalisation (ImageNet statistics).
    private static let mean: [Float] = [0.485, 0.456, 0.406]
    private static let std: [Float] = [0.229, 0.224, 0.225]
    /// No activation may exceed this many floats (1 GiB): a guard against absurd shapes.
    static let maximumTensorCount = 1 << 28

    /// Loads `graph` (the JSON) and `weights` (the float32 little-endian parameters it indexes);
    /// the convolutions run on `kernels` (a path this CPU lacks falls back to `.default`) in `precision`.
    public convenience init(graph graphURL: URL, weights weightsURL: URL, kernels: ConvolutionKernels = .default,
                            precision: InferencePrecision = .fp32) throws(ProcessingError) {
        try self.init(graph: graphURL, weights: weightsURL, kernels: kernels, precision: precision, keepsDirectWeights: false)
    }

    /// `keepsDirectWeights`: keep every convolution's float32 weights besides their packed or
    /// compact form, so that `run(_:kernels:winograd:)` can run any step directly (tests).
    convenience init(graph graphURL: URL, weights weightsURL: URL, kernels: ConvolutionKernels = .default,
                     precision: InferencePrecision = .fp32, keepsDirectWeights: Bool) throws(ProcessingError) {
        let graph: SegmentationGraph
        do {
            graph = try JSONDecoder().decode(SegmentationGraph.self, from: Data(contentsOf: graphURL))
        } catch {
            throw .invalidModel("\(graphURL.lastPathComponent): \(error)")
        }
        let loader = try Self.withMappedFile(weightsURL) { (file) throws(ProcessingError) in
            try SegmentationNetworkLoader(graph: graph, weightFile: file, kernels: kernels, precision: precision,
                                          keepsDirectWeights: keepsDirectWeights)
        }
        self.init(loader)
    }

    /// The network `loaded` describes.
    private init(_ loaded: SegmentationNetworkLoader) {
        inputWidth = loaded.inputWidth
        inputHeight = loaded.inputHeight
        multiplyAdds = loaded.multiplyAdds
        kernels = loaded.kernels
        precision = loaded.precision
        weights = loaded.weights
        steps = loaded.steps
        slotOffsets = loaded.slotOffsets
        workspaceOffset = loaded.workspaceOffset
        workspaceFloats = loaded.workspaceFloats
        activationFloats = loaded.activationFloats
        inputSlot = loaded.inputSlot
        output = loaded.output
        ScratchBuffers.shared.reserve(atLeast: activationFloats * MemoryLayout<Float>.stride)
    }

    /// The network's input for `image`, as rembg prepares it: RGB (alpha ignored) resized to the
    /// input size with Pillow's Lanczos filter (`LanczosResampler`, byte for byte), divided by the
    /// largest channel value in the resized image, then normalised per channel with ImageNet's
    /// mean and standard deviation; planar RGB. An all-black image (maximum 0) is divided by 1
    /// where rembg would divide by zero.
    func preprocessed(_ image: RGBAImage) -> [Float] {
        let resized = LanczosResampler.resized(image, width: inputWidth, height: inputHeight)
        let plane = inputWidth * inputHeight
        var maximum: UInt8 = 0
        for (index, value) in resized.pixels.enumerated() where index % 4 != 3 { maximum = max(maximum, value) }
        let scale = 1 / Float(max(maximum, 1))
        var planes = [Float](repeating: 0, count: 3 * plane)
        resized.pixels.withUnsafeBufferPointer { pixels in
            for channel in 0..<3 {
                let mean = Self.mean[channel], std = Self.std[channel]
                for index in 0..<plane {
                    planes[channel * plane + index] = (Float(pixels[index * 4 + channel]) * scale - mean) / std
                }
            }
        }
        return planes
    }

    /// The probability map (channel 0 of the first output, `inputHeight` rows of `inputWidth`
    /// values in 0...1 for u2netp's sigmoid output) for `image`. Not min-max normalised.
    public func predict(_ image: RGBAImage) throws(ProcessingError) -> [Float] {
        try run(preprocessed(image))
    }

    /// Runs the graph on a prepared planar input (3 x inputHeight x inputWidth floats).
    /// For tests and timing comparisons: `kernels` runs this call on another path the CPU has (the
    /// scalar path, or a network loaded for it, runs every 3x3 convolution directly), `winograd:
    /// false` runs every 3x3 convolution directly, and `stepTime` is told each step's thread CPU
    /// time in seconds (see `stepNames`). `int8Path` runs the int8 steps on that `SK_Q8_*` path
    /// (by default the widest within `kernels`).
    /// `spare`: the cores this call may borrow to share large layers' rows (see `SpareCores`;
    /// by default the budget of the batch the calling task works for). The result is the same
    /// floats whether a layer is shared or not.
    func run(_ input: [Float], kernels: ConvolutionKernels? = nil, winograd: Bool = true, int8Path: Int32? = nil,
             spare: SpareCores? = SpareCores.current, stepTime: ((Int, Double) -> Void)? = nil) throws(ProcessingError) -> [Float] {
        guard input.count == 3 * inputWidth * inputHeight else {
            throw .invalidModel("input has \(input.count) floats, expected \(3 * inputWidth * inputHeight)")
        }
        let path = kernels.flatMap { $0.isSupported ? $0 : nil } ?? self.kernels
        return try ScratchBuffers.shared.withBuffer(bytes: activationFloats * MemoryLayout<Float>.stride) { buffer throws(ProcessingError) in
            let arena = buffer.bindMemory(to: Float.self, capacity: activationFloats)
            let q8 = int8Path.flatMap { sk_q8_supported($0) == 1 ? $0 : nil } ?? sk_q8_path_for_kernels(path.rawValue)
            return try run(input, kernels: path, winograd: winograd && path.hasWinograd, int8Path: q8, spare: spare, stepTime: stepTime,
                    slots: slotOffsets.map { arena + $0 },
                    workspaces: (arena + workspaceOffset, arena + workspaceOffset + workspaceFloats))
        }
    }

    /// One line per step: its op, channels and plane size, and how a convolution runs (for profiles).
    var stepNames: [String] {
        steps.map { step in
            switch step {
            case let .conv(conv):
                let how = conv.quantized != nil ? "int8" + (conv.dilation > 1 ? " d\(conv.dilation)" : "") : conv.compact != nil ? "F(4x4,3x3) compact" + (conv.dilation > 1 ? " d\(conv.dilation)" : "") : conv.packed != nil ? "F(4x4,3x3)" : conv.kernel == 3 ? "direct d\(conv.dilation)" : "1x1"
                return "conv \(conv.inputChannels)->\(conv.output.channels) \(conv.output.width)x\(conv.output.height) \(how)"
            case let .maxPool(input, _): return "maxpool \(input.channels) \(input.width)x\(input.height)"
            case let .resize(_, output): return "resize \(output.channels) \(output.width)x\(output.height)"
            case let .concat(_, output): return "concat \(output.channels) \(output.width)x\(output.height)"
            case let .add(_, _, output): return "add \(output.channels) \(output.width)x\(output.height)"
            case let .sigmoid(_, output): return "sigmoid \(output.channels) \(output.width)x\(output.height)"
            }
        }
    }

    private func run(
        _ input: [Float], kernels: ConvolutionKernels, winograd: Bool, int8Path: Int32, spare: SpareCores?,
        stepTime: ((Int, Double) -> Void)?,
        slots: [UnsafeMutablePointer<Float>], workspaces: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)
    ) throws(ProcessingError) -> [Float] {
        input.withUnsafeBufferPointer { slots[inputSlot].update(from: $0.baseAddress!, count: $0.count) }
        func at(_ tensor: Tensor) -> UnsafeMutablePointer<Float> { slots[tensor.slot] + tensor.offset }
        var failed: Int?
        weights.floats.withUnsafeBufferPointer { floats in weights.packed.withUnsafeBufferPointer { packedWeights in
        weights.compact.withUnsafeBufferPointer { compact in weights.quantized.withUnsafeBufferPointer { quantized in
            let w = floats.baseAddress!
            for (index, step) in steps.enumerated() {
                let started = stepTime == nil ? 0 : Self.threadCPUTime()
                defer { stepTime?(index, Self.threadCPUTime() - started) }
                let status: Int32
                switch step {
                case let .conv(conv) where conv.method == .int8:
                    guard let scratch = conv.scratch, let quantized = quantized.baseAddress else {
                        status = -1
                        break
                    }
                    status = Self.convolveInt8(conv, at: at, scratch: slots[scratch], weights: w, quantized: quantized, path: int8Path,
                                               spare: spare)
                case let .conv(conv) where winograd && conv.method == .compact:
                    guard let scratch = conv.scratch, let compact = compact.baseAddress else {
                        status = -1
                        break
                    }
                    status = Self.convolveCompact(conv, at: at, scratch: slots[scratch], weights: w, compact: compact, kernels: kernels,
                                                  spare: spare)
                case let .conv(conv):
                    let packed = packedWeights.baseAddress.map { $0 + weights.packedStart }
                    let rows = Self.sharedRows(conv, winograd: winograd && conv.packed != nil && packed != nil)
                    if let rows, let spare, spare.borrow() {
                        defer { spare.giveBack() }
                        status = Self.shared(pieces: Self.pieces(of: rows)) { piece, worker in
                            Self.convolve(conv, at: at, weights: w, packed: packed, workspace: worker == 0 ? workspaces.0 : workspaces.1,
                                          kernels: kernels, winograd: winograd, rows: piece)
                        }
                    } else {
                        status = Self.convolve(conv, at: at, weights: w, packed: packed, workspace: workspaces.0,
                                               kernels: kernels, winograd: winograd)
                    }
                case let .maxPool(input, output):
                    let plane = (input: input.height * input.width, output: output.height * output.width)
                    let pool = { (channels: Range<Int>) -> Int32 in
                        sk_maxpool2x2_ceil(at(input) + channels.lowerBound * plane.input, Int32(channels.count),
                                           Int32(input.height), Int32(input.width), at(output) + channels.lowerBound * plane.output)
                    }
                    if input.count >= Self.smallestSharedPool, input.channels > 1, let spare, spare.borrow() {
                        defer { spare.giveBack() }
                        status = Self.shared(pieces: Self.pieces(of: 0..<input.channels)) { channels, _ in pool(channels) }
                    } else {
                        status = pool(0..<input.channels)
                    }
                case let .resize(input, output):
                    status = sk_resize_bilinear_halfpixel(
                        at(input), Int32(input.channels), Int32(input.height), Int32(input.width),
                        Int32(output.height), Int32(output.width), at(output))
                case let .concat(inputs, output):
                    var offset = output.offset
                    for input in inputs {
                        // Inputs written in place already are where they belong.
                        if input.slot != output.slot || input.offset != offset {
                            (slots[output.slot] + offset).update(from: at(input), count: input.count)
                        }
                        offset += input.count
                    }
                    status = 0
                case let .add(a, b, output):
                    status = sk_add(at(a), at(b), output.count, at(output))
                case let .sigmoid(input, output):
                    status = sk_sigmoid(at(input), output.count, at(output))
                }
                if status != 0 {
                    failed = index
                    return
                }
            }
        } } } }
        if let failed { throw .invalidModel("step \(failed) was rejected by its kernel") }
        let plane = output.height * output.width
        return Array(UnsafeBufferPointer(start: at(output), count: plane))
    }

    /// This thread's CPU time in seconds (for `stepTime`).
    private static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
