import CSegmentationKernels
import Foundation
import Synchronization

/// A small convolutional segmentation network (rembg's u2netp, exported by
/// `Benchmarks/cutout/export_u2netp_weights.py`) run natively on the CPU: on the calling thread,
/// with a second thread taking part of each large layer's rows while the batch has a spare core
/// (`SpareCores`, `SharedRows`; the same floats either way).
///
/// Loading validates everything the kernels rely on (every parameter inside the weights file,
/// every shape consistent with its op), so a bad file is a thrown `ProcessingError.invalidModel`
/// and never a crash; transforms the weights of the Winograd convolutions once
/// (`sk_winograd4_pack`); fuses what those convolutions can do on the fly (`SegmentationFusion`:
/// concatenations, 2x resizes, residual adds); and plans the activation memory: each tensor gets
/// a place in one arena that it shares with tensors it is never alive with (`ActivationPlanner`).
///
/// Cost (one core of the shared 2-core AMD EPYC Zen 3 dev VM, thread CPU time, median of 9,
/// onnxruntime 1 thread timed in the same minutes): u2netp at 320 x 320 (19.8 G multiply-adds)
/// takes 0.24 s against 0.53 s for onnxruntime (0.33 against 0.63 when the machine is busier;
/// the first prediction of a process ~0.03 s more, as its arena is faulted in). On an Intel Xeon
/// with AVX-512 the convolutions run on it (`kernels`, `ConvolutionKernels`): 0.19 s against
/// 0.25 s for the AVX2 path, interleaved in one run, with the same floats (Benchmarks/cutout/README.md). The 3x3 convolutions of dilation 1 with at least 8 input and 8 output channels (all but
/// 1% of the multiply-adds) run by Winograd F(4x4, 3x3) (`sk_conv3x3_winograd4_fused`, 4x fewer
/// multiply-adds than direct, products at ~80% of the FMA peak on 128 -> 64); the rest directly
/// (`sk_conv3x3`), faster there than any Winograd. History: direct 0.78 s, F(2x2, 3x3) 0.58 s.
/// Outputs agree with the direct kernels to 8.3e-5 and with onnxruntime on the same input to 1e-4.
/// Debug builds compile the kernels with -O2 too (Package.swift); unoptimised, one prediction took a minute.
///
/// Sharing: the class is immutable (every stored property is a `let` value) and `Sendable` without
/// exceptions; the weights are only ever read, and each `predict` call borrows an arena of its own
/// (`ScratchBuffers`, kept between calls and lent to a photo's decode in between), so concurrent
/// calls from several tasks are safe.
public final class SegmentationNetwork: Sendable {
    /// The network's input size (u2netp: 320 x 320).
    public let inputWidth: Int
    public let inputHeight: Int
    /// Multiply-adds of one prediction (from the graph's shapes).
    public let multiplyAdds: Int
    /// The instruction set the convolutions run on (the widest this CPU has unless told otherwise).
    public let kernels: ConvolutionKernels

    private let weights: [Float]
    /// Weights of the convolutions run by Winograd F(4x4, 3x3), transformed once at load
    /// (`sk_winograd4_pack`); steps index them by `packed`, from `packedStart`: the first float
    /// on a 64-byte boundary (a cache line; the products run 10% slower on misaligned panels).
    /// Should the array ever move, the data moves with it: only the alignment could be lost.
    private let packedWeights: [Float]
    private let packedStart: Int
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

    /// rembg's normalisation (ImageNet statistics).
    private static let mean: [Float] = [0.485, 0.456, 0.406]
    private static let std: [Float] = [0.229, 0.224, 0.225]
    /// No activation may exceed this many floats (1 GiB): a guard against absurd shapes.
    private static let maximumTensorCount = 1 << 28

    /// Where in the slots a tensor lives, and its shape (N = 1).
    struct Tensor: Sendable {
        var slot: Int
        /// Floats from the slot's start: nonzero for a tensor written straight into its place
        /// inside a concatenation.
        var offset = 0
        var channels: Int
        var height: Int
        var width: Int
        var count: Int { channels * height * width }
    }

    enum Step: Sendable {
        case conv(Convolution)
        case maxPool(input: Tensor, output: Tensor)
        case resize(input: Tensor, output: Tensor)
        case concat(inputs: [Tensor], output: Tensor)
        case add(Tensor, Tensor, output: Tensor)
        case sigmoid(input: Tensor, output: Tensor)
    }

    /// A convolution step, possibly with a concatenation and an add fused in (`SegmentationFusion`).
    struct Convolution: Sendable {
        var input: Tensor
        /// Channels that follow `input`'s: the second half of a concatenation read in place.
        var second: Tensor?
        /// `input` or `second` holds half-size planes, resized 2x on the fly (an absorbed resize).
        var inputUpsampled = false, secondUpsampled = false
        /// Added after the activation (an absorbed residual `add`).
        var residual: Tensor?
        var output: Tensor
        /// `weight`, `bias`: float offsets into `weights`. kernel 3 (padding = dilation) or 1.
        var weight: Int, bias: Int, kernel: Int, dilation: Int, relu: Bool
        /// Float offset into `packedWeights` when the step runs by F(4x4, 3x3), else nil.
        var packed: Int?
        var inputChannels: Int { input.channels + (second?.channels ?? 0) }
    }

    /// Loads `graph` (the JSON) and `weights` (the float32 little-endian parameters it indexes);
    /// the convolutions run on `kernels` (a path this CPU lacks falls back to `.default`).
    public convenience init(graph graphURL: URL, weights weightsURL: URL,
                            kernels: ConvolutionKernels = .default) throws(ProcessingError) {
        let graph: SegmentationGraph
        let data: Data
        do {
            graph = try JSONDecoder().decode(SegmentationGraph.self, from: Data(contentsOf: graphURL))
        } catch {
            throw .invalidModel("\(graphURL.lastPathComponent): \(error)")
        }
        do {
            data = try Data(contentsOf: weightsURL)
        } catch {
            throw .invalidModel("\(weightsURL.lastPathComponent): \(error.localizedDescription)")
        }
        try self.init(graph: graph, weightData: data, kernels: kernels)
    }

    init(graph: SegmentationGraph, weightData data: Data, kernels wanted: ConvolutionKernels = .default) throws(ProcessingError) {
        let kernels = wanted.isSupported ? wanted : .default
        func fail(_ reason: String) -> ProcessingError { .invalidModel(reason) }
        guard graph.format == "sticker-nn-graph", graph.version == 1 else {
            throw fail("format \(graph.format) version \(graph.version), expected sticker-nn-graph version 1")
        }
        guard graph.weights.dtype == "f32le" else { throw fail("weights dtype \(graph.weights.dtype), expected f32le") }
        guard graph.weights.bytes == data.count else {
            throw fail("weights file has \(data.count) bytes, the graph says \(graph.weights.bytes)")
        }
        let floats = [Float](unsafeUninitializedCapacity: data.count / 4) { buffer, initialized in
            data.withUnsafeBytes { raw in
                for index in 0..<buffer.count {
                    let bits = raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                    buffer[index] = Float(bitPattern: UInt32(littleEndian: bits))
                }
            }
            initialized = buffer.count
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
                  dims[1] * dims[2] * dims[3] <= Self.maximumTensorCount
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
        var packedCount = 0
        var packing: [(offset: Int, weight: Int, inputs: Int32, outputs: Int32)] = []
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
                if runsByWinograd4(index) {
                    let count = sk_winograd4_packed_count(Int32(step.inputChannels), Int32(out.channels))
                    guard count > 0 else { throw fail("node \(index): \(step.inputChannels) -> \(out.channels) channels is too many") }
                    packing.append((packedCount, step.weight, Int32(step.inputChannels), Int32(out.channels)))
                    step.packed = packedCount
                    packedCount += count
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

        // The Winograd weights, packed once into one cache-line-aligned run of floats.
        var packed = [Float](repeating: 0, count: packedCount + 16)
        let packedStart = packed.withUnsafeBufferPointer { (16 - Int(UInt(bitPattern: $0.baseAddress) / 4 % 16)) % 16 }
        let packedOK = floats.withUnsafeBufferPointer { w in
            packed.withUnsafeMutableBufferPointer { p in
                packing.allSatisfy { job in
                    sk_winograd4_pack(w.baseAddress! + job.weight, job.inputs, job.outputs, p.baseAddress! + packedStart + job.offset) == 0
                }
            }
        }
        guard packedOK else { throw fail("convolution weights could not be transformed") }

        self.inputWidth = input.width
        self.inputHeight = input.height
        self.multiplyAdds = macs
        self.kernels = kernels
        self.weights = floats
        self.packedWeights = packed
        self.packedStart = packedStart
        self.steps = steps
        self.slotOffsets = plan.offsets
        let workspaceCount = steps.reduce(0) { largest, step in
            guard case let .conv(conv) = step, conv.packed != nil else { return largest }
            return max(largest, sk_winograd4_workspace(Int32(conv.inputChannels), Int32(conv.output.channels)))
        }
        // The Winograd scratch lives at the arena's end (64-byte aligned, like every slot): one for
        // each of the two workers that share a layer's rows (`SharedRows`).
        self.workspaceOffset = plan.arenaCount
        self.workspaceFloats = (max(16, workspaceCount) + 15) / 16 * 16
        self.activationFloats = plan.arenaCount + 2 * workspaceFloats
        ScratchBuffers.shared.reserve(atLeast: activationFloats * MemoryLayout<Float>.stride)
        self.inputSlot = inputTensor.slot
        self.output = placed[outputInfo.name] ?? inputTensor
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
    /// time in seconds (see `stepNames`).
    /// `spare`: the cores this call may borrow to share large layers' rows (see `SpareCores`;
    /// by default the budget of the batch the calling task works for). The result is the same
    /// floats whether a layer is shared or not.
    func run(_ input: [Float], kernels: ConvolutionKernels? = nil, winograd: Bool = true,
             spare: SpareCores? = SpareCores.current, stepTime: ((Int, Double) -> Void)? = nil) throws(ProcessingError) -> [Float] {
        guard input.count == 3 * inputWidth * inputHeight else {
            throw .invalidModel("input has \(input.count) floats, expected \(3 * inputWidth * inputHeight)")
        }
        let path = kernels.flatMap { $0.isSupported ? $0 : nil } ?? self.kernels
        return try ScratchBuffers.shared.withBuffer(bytes: activationFloats * MemoryLayout<Float>.stride) { buffer throws(ProcessingError) in
            let arena = buffer.bindMemory(to: Float.self, capacity: activationFloats)
            return try run(input, kernels: path, winograd: winograd && path.hasWinograd, spare: spare, stepTime: stepTime,
                    slots: slotOffsets.map { arena + $0 },
                    workspaces: (arena + workspaceOffset, arena + workspaceOffset + workspaceFloats))
        }
    }

    /// One line per step: its op, channels and plane size, and how a convolution runs (for profiles).
    var stepNames: [String] {
        steps.map { step in
            switch step {
            case let .conv(conv):
                let how = conv.packed != nil ? "F(4x4,3x3)" : conv.kernel == 3 ? "direct d\(conv.dilation)" : "1x1"
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
        _ input: [Float], kernels: ConvolutionKernels, winograd: Bool, spare: SpareCores?, stepTime: ((Int, Double) -> Void)?,
        slots: [UnsafeMutablePointer<Float>], workspaces: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)
    ) throws(ProcessingError) -> [Float] {
        input.withUnsafeBufferPointer { slots[inputSlot].update(from: $0.baseAddress!, count: $0.count) }
        func at(_ tensor: Tensor) -> UnsafeMutablePointer<Float> { slots[tensor.slot] + tensor.offset }
        var failed: Int?
        weights.withUnsafeBufferPointer { weights in packedWeights.withUnsafeBufferPointer { packedWeights in
            let w = weights.baseAddress!
            for (index, step) in steps.enumerated() {
                let started = stepTime == nil ? 0 : Self.threadCPUTime()
                defer { stepTime?(index, Self.threadCPUTime() - started) }
                let status: Int32
                switch step {
                case let .conv(conv):
                    let packed = packedWeights.baseAddress.map { $0 + packedStart }
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
        } }
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

    /// Convolutions below this many multiply-adds run whole on the predicting thread: sharing
    /// their rows would cost more in waking a second thread than it saves.
    private static let smallestSharedConvolution = 4_000_000
    /// Max pooling over fewer input floats than this runs whole.
    private static let smallestSharedPool = 1 << 20
    /// Pieces a shared layer is cut into: enough that the two threads finish close together
    /// whatever the second thread's late start, few enough that each piece is long next to the handover.
    private static let sharedPieces = 16

    /// The rows `convolve(_:rows:)` may be given in pieces for `conv` (tile rows of 4 on the
    /// F(4x4, 3x3) path, else rows), or nil when the step runs whole: too small to be worth it, or
    /// a step the direct path fuses by copying (the scalar path, and tests that turn Winograd off).
    private static func sharedRows(_ conv: Convolution, winograd: Bool) -> Range<Int>? {
        let multiplyAdds = conv.output.count * conv.inputChannels * conv.kernel * conv.kernel
        guard multiplyAdds >= smallestSharedConvolution else { return nil }
        if winograd { return 0..<Int(sk_winograd4_tile_rows(Int32(conv.output.height))) }
        guard conv.kernel == 3, conv.second == nil, !conv.inputUpsampled, conv.residual == nil else { return nil }
        return 0..<conv.output.height
    }

    /// `range` cut into at most `sharedPieces` consecutive pieces of near equal size.
    private static func pieces(of range: Range<Int>) -> [Range<Int>] {
        let count = min(range.count, sharedPieces)
        guard count > 0 else { return [] }
        return (0..<count).map { index in
            range.lowerBound + range.count * index / count ..< range.lowerBound + range.count * (index + 1) / count
        }
    }

    /// Runs `body` on every piece, shared by two workers (`SharedRows`); the first nonzero
    /// status, else 0.
    private static func shared(pieces: [Range<Int>], _ body: (Range<Int>, Int) -> Int32) -> Int32 {
        let failure = Atomic<Int32>(0)
        SharedRows.run(count: pieces.count) { index, worker in
            let status = body(pieces[index], worker)
            if status != 0 { _ = failure.compareExchange(expected: 0, desired: status, ordering: .relaxed) }
        }
        return failure.load(ordering: .relaxed)
    }

    /// Runs one convolution step on `kernels`: by F(4x4, 3x3) when its weights were packed (and `winograd`),
    /// else directly (`sk_conv3x3`: faster than F(2x2, 3x3) for the few layers F(4x4, 3x3) leaves,
    /// see `runsByWinograd4`). Off the F(4x4, 3x3) path (scalar kernels, or `winograd: false` in tests),
    /// a fused concatenation is copied into a scratch buffer and a fused add done after.
    private static func convolve(_ conv: Convolution, at: (Tensor) -> UnsafeMutablePointer<Float>, weights w: UnsafePointer<Float>,
                                 packed: UnsafePointer<Float>?, workspace: UnsafeMutablePointer<Float>,
                                 kernels: ConvolutionKernels, winograd: Bool, rows: Range<Int>? = nil) -> Int32 {
        let o = Int32(conv.output.channels), h = Int32(conv.output.height), width = Int32(conv.output.width)
        let relu: Int32 = conv.relu ? 1 : 0
        let out = at(conv.output)
        if winograd, let offset = conv.packed, let packed {
            let tileRows = rows ?? 0..<Int(sk_winograd4_tile_rows(h))
            return sk_conv3x3_winograd4_fused_rows_with(
                kernels.rawValue, at(conv.input), Int32(conv.input.channels), conv.inputUpsampled ? 1 : 0,
                conv.second.map { UnsafePointer(at($0)) }, Int32(conv.second?.channels ?? 0), conv.secondUpsampled ? 1 : 0,
                h, width, packed + offset, w + conv.bias, o, relu, conv.residual.map { UnsafePointer(at($0)) },
                Int32(tileRows.lowerBound), Int32(tileRows.upperBound), workspace, out)
        }
        if let rows {
            // Only plain direct steps are given rows (`sharedRows`).
            return sk_conv3x3_rows_with(kernels.rawValue, at(conv.input), Int32(conv.inputChannels), h, width, w + conv.weight,
                                        w + conv.bias, o, Int32(conv.dilation), relu, Int32(rows.lowerBound), Int32(rows.upperBound), out)
        }
        var input = UnsafePointer(at(conv.input))
        var joined: UnsafeMutablePointer<Float>?
        defer { joined?.deallocate() }
        if conv.second != nil || conv.inputUpsampled {
            // The concatenation (and resizes) the fused path does on the fly, materialised.
            let plane = conv.output.height * conv.output.width
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: conv.inputChannels * plane)
            var channel = 0
            for (part, upsampled) in [(conv.input, conv.inputUpsampled), conv.second.map { ($0, conv.secondUpsampled) }].compactMap({ $0 }) {
                if upsampled {
                    _ = sk_resize_bilinear_halfpixel(at(part), Int32(part.channels), Int32(part.height), Int32(part.width),
                                                     h, width, buffer + channel * plane)
                } else {
                    (buffer + channel * plane).update(from: at(part), count: part.count)
                }
                channel += part.channels
            }
            joined = buffer
            input = UnsafePointer(buffer)
        }
        // A residual overwritten in place must survive the convolution: convolve aside, then add.
        let aliased = conv.residual.map { at($0) == out } ?? false
        let target = aliased ? UnsafeMutablePointer<Float>.allocate(capacity: conv.output.count) : out
        defer { if aliased { target.deallocate() } }
        let i = Int32(conv.inputChannels), d = Int32(conv.dilation)
        let status = conv.kernel != 3
            ? sk_conv1x1(input, i, h, width, w + conv.weight, w + conv.bias, o, relu, target)
            : sk_conv3x3_with(kernels.rawValue, input, i, h, width, w + conv.weight, w + conv.bias, o, d, relu, target)
        guard status == 0, let residual = conv.residual else { return status }
        return sk_add(target, at(residual), conv.output.count, out)
    }
}
