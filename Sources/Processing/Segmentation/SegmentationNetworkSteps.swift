import CSegmentationKernels
import Synchronization

/// The steps a loaded network runs, and how a convolution step runs on the kernels
/// (`CSegmentationKernels`): directly, by Winograd F(4x4, 3x3) from weights packed at load, or by
/// F(4x4, 3x3) from compact (half-precision) weights transformed at every call.
extension SegmentationNetwork {
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

    /// How a 3x3 convolution of dilation 1 runs (`SegmentationNetworkLoader.method`).
    enum ConvolutionMethod: Sendable, Equatable {
        /// `sk_conv3x3` (or `sk_conv1x1`), from the float32 weights.
        case direct
        /// Winograd F(4x4, 3x3) from weights transformed once at load (`sk_winograd4_pack`).
        case packed
        /// Winograd F(4x4, 3x3) from half-precision weights transformed at every call
        /// (`sk_winograd4c_*`): planes of few tiles with many channels.
        case compact
        /// int8 sums of bytes (`sk_q8_*`): the input quantized per tensor at every call, the
        /// weights per output channel at load; any dilation.
        case int8
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
        /// `weight`, `bias`: float offsets into `Weights.floats`; `weight` is nil when only the
        /// packed or compact form was kept. kernel 3 (padding = dilation) or 1.
        var weight: Int?, bias: Int, kernel: Int, dilation: Int, relu: Bool
        /// Float offset into `Weights.packed` when the step runs by F(4x4, 3x3) from packed weights.
        var packed: Int?
        /// Offset into `Weights.compact` when it runs from compact weights, and the slot of its
        /// scratch (the transformed input, then one scratch per worker), alive for this step only.
        var compact: Int?, scratch: Int?
        /// Byte offset into `Weights.quantized` when the step runs in int8, and the float offset of
        /// its weights' scales in `Weights.floats`; its quantized input goes to `scratch`.
        var quantized: Int?, weightScales: Int?
        var inputChannels: Int { input.channels + (second?.channels ?? 0) }
        var method: ConvolutionMethod {
            quantized != nil ? .int8 : compact != nil ? .compact : packed != nil ? .packed : .direct
        }

        /// Floats of the int8 path's scratch slot: the quantized input (0 for sizes the kernels refuse).
        var quantizedInputFloats: Int {
            let bytes = sk_q8_input_bytes(Int32(inputChannels), Int32(output.height), Int32(output.width), Int32(dilation))
            return (bytes + 63) / 64 * 16
        }

        /// The plane the compact path convolves: the output's, or for a dilated convolution the
        /// tall plane of its subplanes (`sk_dilated_tall_size`).
        var compactPlane: (height: Int, width: Int) {
            guard dilation > 1 else { return (output.height, output.width) }
            var height: Int32 = 0, width: Int32 = 0
            guard sk_dilated_tall_size(Int32(output.height), Int32(output.width), Int32(dilation), &height, &width) == 0 else { return (0, 0) }
            return (Int(height), Int(width))
        }

        /// Floats of the compact path's scratch slot: the transformed input, two workers' scratch,
        /// and for a dilated convolution its input and output gathered into tall planes. 0s for
        /// sizes the kernels refuse.
        var scratchLayout: (input: Int, worker: Int, gathered: Int, tallOutput: Int) {
            let plane = compactPlane
            let c = Int32(inputChannels), h = Int32(plane.height), w = Int32(plane.width)
            func aligned(_ count: Int) -> Int { (count + 15) / 16 * 16 }
            let tall = dilation > 1 ? plane.height * plane.width : 0
            return (aligned(sk_winograd4c_input_count(c, h, w)), aligned(sk_winograd4c_scratch_count(c, h, w)),
                    aligned(inputChannels * tall), aligned(output.channels * tall))
        }
        var scratchFloats: Int {
            let layout = scratchLayout
            return layout.input + 2 * layout.worker + layout.gathered + layout.tallOutput
        }
    }

    /// Convolutions below this many multiply-adds run whole on the predicting thread: sharing
    /// their rows would cost more in waking a second thread than it saves.
    static let smallestSharedConvolution = 4_000_000
    /// Max pooling over fewer input floats than this runs whole.
    static let smallestSharedPool = 1 << 20
    /// Pieces a shared layer is cut into: enough that the two threads finish close together
    /// whatever the second thread's late start, few enough that each piece is long next to the handover.
    static let sharedPieces = 16

    /// The rows `convolve(_:rows:)` may be given in pieces for `conv` (tile rows of 4 on the
    /// F(4x4, 3x3) path, else rows), or nil when the step runs whole: too small to be worth it, or
    /// a step the direct path fuses by copying (the scalar path, and tests that turn Winograd off).
    static func sharedRows(_ conv: Convolution, winograd: Bool) -> Range<Int>? {
        let multiplyAdds = conv.output.count * conv.inputChannels * conv.kernel * conv.kernel
        guard multiplyAdds >= smallestSharedConvolution else { return nil }
        if winograd { return 0..<Int(sk_winograd4_tile_rows(Int32(conv.output.height))) }
        guard conv.kernel == 3, conv.second == nil, !conv.inputUpsampled, conv.residual == nil, conv.weight != nil else { return nil }
        return 0..<conv.output.height
    }

    /// `range` cut into at most `sharedPieces` consecutive pieces of near equal size.
    static func pieces(of range: Range<Int>) -> [Range<Int>] {
        let count = min(range.count, sharedPieces)
        guard count > 0 else { return [] }
        return (0..<count).map { index in
            range.lowerBound + range.count * index / count ..< range.lowerBound + range.count * (index + 1) / count
        }
    }

    /// Runs `body` on every piece, shared by two workers (`SharedRows`); the first nonzero
    /// status, else 0.
    static func shared(pieces: [Range<Int>], _ body: (Range<Int>, Int) -> Int32) -> Int32 {
        let failure = Atomic<Int32>(0)
        SharedRows.run(count: pieces.count) { index, worker in
            let status = body(pieces[index], worker)
            if status != 0 { _ = failure.compareExchange(expected: 0, desired: status, ordering: .relaxed) }
        }
        return failure.load(ordering: .relaxed)
    }

    /// Runs a step that runs from compact weights on `kernels`: the input transformed once on this
    /// thread, then the panels of 32 outputs, shared with a spare core when `spare` lends one.
    static func convolveCompact(_ conv: Convolution, at: (Tensor) -> UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
                                weights: UnsafePointer<Float>, compact: UnsafePointer<UInt16>, kernels: ConvolutionKernels,
                                spare: SpareCores?) -> Int32 {
        let plane = conv.compactPlane
        let c = Int32(conv.inputChannels), h = Int32(plane.height), w = Int32(plane.width), o = Int32(conv.output.channels)
        let layout = conv.scratchLayout
        let transformed = scratch, workers = (scratch + layout.input, scratch + layout.input + layout.worker)
        let gathered = workers.1 + layout.worker, tallOutput = gathered + layout.gathered
        let dilated = conv.dilation > 1
        // A dilated convolution (one input, nothing fused: `SegmentationFusion` fuses dilation 1 only)
        // runs on the tall plane of its subplanes.
        if dilated {
            guard conv.second == nil, !conv.inputUpsampled, conv.residual == nil,
                  sk_dilated_gather(at(conv.input), c, Int32(conv.output.height), Int32(conv.output.width), Int32(conv.dilation),
                                    gathered) == 0
            else { return -1 }
        }
        let status = sk_winograd4c_input_with(
            kernels.rawValue, dilated ? gathered : at(conv.input), Int32(conv.input.channels), conv.inputUpsampled ? 1 : 0,
            conv.second.map { UnsafePointer(at($0)) }, Int32(conv.second?.channels ?? 0), conv.secondUpsampled ? 1 : 0, h, w,
            workers.0, transformed)
        guard status == 0, let offset = conv.compact else { return status == 0 ? -1 : status }
        let residual = conv.residual.map { UnsafePointer(at($0)) }
        let out = dilated ? tallOutput : at(conv.output)
        func panels(_ range: Range<Int>, worker: Int) -> Int32 {
            sk_winograd4c_output_with(kernels.rawValue, transformed, c, h, w, compact + offset, weights + conv.bias, o, conv.relu ? 1 : 0,
                                      residual, Int32(range.lowerBound), Int32(range.upperBound), worker == 0 ? workers.0 : workers.1, out)
        }
        let all = 0..<Int(sk_winograd4c_panels(o))
        let multiplyAdds = conv.output.count * conv.inputChannels * 9
        let result: Int32
        if multiplyAdds >= smallestSharedConvolution, all.count > 1, let spare, spare.borrow() {
            defer { spare.giveBack() }
            result = shared(pieces: pieces(of: all), panels)
        } else {
            result = panels(all, worker: 0)
        }
        guard result == 0, dilated else { return result }
        return sk_dilated_scatter(tallOutput, o, Int32(conv.output.height), Int32(conv.output.width), Int32(conv.dilation), at(conv.output))
    }

    /// Runs one convolution step on `kernels`: by F(4x4, 3x3) when its weights were packed (and `winograd`),
    /// else directly (`sk_conv3x3`: faster than F(2x2, 3x3) for the few layers F(4x4, 3x3) leaves,
    /// see `runsByWinograd4`). Off the F(4x4, 3x3) path (scalar kernels, or `winograd: false` in tests),
    /// a fused concatenation is copied into a scratch buffer and a fused add done after. -1 when the
    /// step must run directly and its float32 weights were not kept.
    static func convolve(_ conv: Convolution, at: (Tensor) -> UnsafeMutablePointer<Float>, weights w: UnsafePointer<Float>,
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
        // The float32 weights: only kept for steps that run directly, unless loaded with `keepsDirectWeights`.
        guard let weight = conv.weight else { return -1 }
        if let rows {
            // Only plain direct steps are given rows (`sharedRows`).
            return sk_conv3x3_rows_with(kernels.rawValue, at(conv.input), Int32(conv.inputChannels), h, width, w + weight,
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
            ? sk_conv1x1(input, i, h, width, w + weight, w + conv.bias, o, relu, target)
            : sk_conv3x3_with(kernels.rawValue, input, i, h, width, w + weight, w + conv.bias, o, d, relu, target)
        guard status == 0, let residual = conv.residual else { return status }
        return sk_add(target, at(residual), conv.output.count, out)
    }
}
