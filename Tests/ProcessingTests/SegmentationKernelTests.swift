import CSegmentationKernels
import Foundation
import Testing
@testable import Processing

/// Every kernel path against the scalar one: the shapes below through `sk_conv3x3_with` and
/// `sk_conv3x3_winograd4_fused_with` on one path, compared with `sk_conv3x3_portable` (itself
/// checked against the double-precision reference in `SegmentationKernelTests`).
enum KernelPathCheck {
    /// (input channels, output channels, height, width, dilation): borders, odd sizes, channel
    /// counts off the 4-channel blocks, dilations wider than the plane, u2netp's first layer.
    static let direct = [
        (3, 5, 7, 9, 1), (6, 4, 11, 30, 2), (5, 9, 19, 41, 4), (5, 9, 19, 21, 8), (2, 3, 5, 6, 8),
        (16, 16, 20, 20, 8), (8, 6, 13, 57, 1), (1, 1, 1, 1, 1), (4, 2, 3, 100, 2), (3, 64, 9, 130, 1), (64, 1, 7, 149, 1),
        (16, 16, 10, 10, 4),
    ]
    /// (input channels, output channels, height, width): u2netp's channel classes, channel counts
    /// off the 16/32 panels, odd and tiny planes, several tile blocks and tails of every length.
    static let winograd = [
        (3, 64, 9, 10), (128, 64, 7, 70), (32, 64, 11, 33), (64, 16, 20, 20), (16, 16, 5, 131), (64, 1, 13, 17),
        (32, 16, 10, 10), (64, 64, 3, 3), (1, 5, 1, 1), (7, 6, 2, 65), (5, 9, 13, 17), (17, 23, 21, 50),
        (9, 17, 6, 197), (16, 16, 10, 10), (128, 64, 20, 20), (64, 16, 4, 4), (3, 8, 1, 9), (12, 40, 1, 2),
        (16, 48, 9, 92), (20, 33, 8, 28),
        // Rows of 33-48 tiles (the AVX-512 path's one-block rows: 3 vectors of 16 tiles) and wider.
        (16, 16, 7, 160), (8, 24, 6, 190), (5, 16, 5, 320), (16, 32, 3, 256),
    ]
    /// (channels of the first input, of the second, outputs, height, width, first upsampled, second upsampled).
    static let fused = [
        (64, 64, 64, 11, 33, false, false), (16, 16, 16, 10, 10, true, false), (3, 5, 9, 13, 17, false, false),
        (32, 96, 64, 7, 50, false, false), (64, 64, 64, 20, 40, true, false), (16, 16, 16, 2, 2, false, true),
        (9, 7, 16, 14, 106, true, true), (16, 16, 16, 40, 40, true, false), (5, 8, 8, 6, 70, false, true),
        // Upsampled rows of several vectors, a block of 33-48 tiles, blocks of 32 and a tail, a 2-pixel-wide source.
        (3, 5, 7, 2, 320, true, true), (4, 4, 8, 18, 196, true, false), (8, 8, 16, 12, 256, true, false),
        (6, 6, 16, 10, 200, true, true), (2, 3, 5, 8, 4, false, true),
    ]

    static func direct(_ kernels: ConvolutionKernels, c: Int, o: Int, h: Int, w: Int, dilation: Int) {
        var noise = Noise(state: UInt64(c * 1000 + o * 100 + h * 10 + w + dilation))
        let x = noise.array(c * h * w), weight = noise.array(o * c * 9), bias = noise.array(o)
        for relu in [false, true] {
            var scalar = [Float](repeating: .nan, count: o * h * w)
            var fast = scalar
            #expect(sk_conv3x3_portable(x, Int32(c), Int32(h), Int32(w), weight, bias, Int32(o), Int32(dilation), relu ? 1 : 0, &scalar) == 0)
            #expect(sk_conv3x3_with(kernels.rawValue, x, Int32(c), Int32(h), Int32(w), weight, bias, Int32(o), Int32(dilation),
                                    relu ? 1 : 0, &fast) == 0)
            // The same sums in the same order; only fused multiply-adds round differently.
            #expect(maxDifference(fast, scalar) < 1e-5 * Float(c).squareRoot() * 3, "\(kernels) \(c)->\(o) \(h)x\(w) d\(dilation)")
            // The vector paths fuse the same multiply-adds in the same order: the same floats.
            var avx2 = scalar
            #expect(sk_conv3x3_with(ConvolutionKernels.avx2.rawValue, x, Int32(c), Int32(h), Int32(w), weight, bias, Int32(o),
                                    Int32(dilation), relu ? 1 : 0, &avx2) == 0)
            #expect(fast == avx2, "\(kernels) \(c)->\(o) \(h)x\(w) d\(dilation)")
            // Row by row in pieces (as two threads share a layer): the same floats as the whole call.
            var pieces = [Float](repeating: .nan, count: o * h * w)
            for rows in rowPieces(h) {
                #expect(sk_conv3x3_rows_with(kernels.rawValue, x, Int32(c), Int32(h), Int32(w), weight, bias, Int32(o), Int32(dilation),
                                             relu ? 1 : 0, Int32(rows.lowerBound), Int32(rows.upperBound), &pieces) == 0)
            }
            #expect(pieces == fast, "\(kernels) \(c)->\(o) \(h)x\(w) d\(dilation) in pieces")
        }
        var untouched = [Float](repeating: 0, count: o * h * w)
        #expect(sk_conv3x3_rows_with(kernels.rawValue, x, Int32(c), Int32(h), Int32(w), weight, bias, Int32(o), Int32(dilation), 0,
                                     0, Int32(h + 1), &untouched) == -1)
    }

    /// `count` rows (or tile rows) cut into uneven pieces, out of order: the last first, an empty one.
    static func rowPieces(_ count: Int) -> [Range<Int>] {
        let cuts = [0, min(count, 1), count / 3, count / 3, count].sorted()
        return zip(cuts, cuts.dropFirst()).map { $0..<$1 }.reversed()
    }

    static func winograd(_ kernels: ConvolutionKernels, c: Int, o: Int, h: Int, w: Int) {
        var noise = Noise(state: UInt64(c * 7907 + o * 104_723 + h * 37 + w))
        let x = noise.array(c * h * w), weight = noise.array(o * c * 9), bias = noise.array(o)
        var packed = [Float](repeating: .nan, count: sk_winograd4_packed_count(Int32(c), Int32(o)))
        #expect(sk_winograd4_pack(weight, Int32(c), Int32(o), &packed) == 0)
        var workspace = [Float](repeating: .nan, count: sk_winograd4_workspace(Int32(c), Int32(o)))
        for (relu, withBias) in [(false, true), (true, true), (false, false)] {
            var scalar = [Float](repeating: .nan, count: o * h * w)
            var winograd = scalar
            #expect(sk_conv3x3_portable(x, Int32(c), Int32(h), Int32(w), weight, withBias ? bias : nil, Int32(o), 1, relu ? 1 : 0,
                                        &scalar) == 0)
            #expect(sk_conv3x3_winograd4_fused_with(kernels.rawValue, x, Int32(c), 0, nil, 0, 0, Int32(h), Int32(w), packed,
                                                    withBias ? bias : nil, Int32(o), relu ? 1 : 0, nil, &workspace, &winograd) == 0)
            // The transforms scale by up to 8 and 1/24: a few times F(2x2, 3x3)'s rounding.
            #expect(maxDifference(winograd, scalar) < 1e-4 * Float(c).squareRoot() * 3, "\(kernels) \(c)->\(o) \(h)x\(w)")
            #expect(!winograd.contains { $0.isNaN })
            // Only the products differ between the vector paths, and they sum in the same order.
            var avx2 = scalar
            #expect(sk_conv3x3_winograd4_fused_with(ConvolutionKernels.avx2.rawValue, x, Int32(c), 0, nil, 0, 0, Int32(h), Int32(w),
                                                    packed, withBias ? bias : nil, Int32(o), relu ? 1 : 0, nil, &workspace, &avx2) == 0)
            #expect(winograd == avx2, "\(kernels) \(c)->\(o) \(h)x\(w)")
            var pieces = [Float](repeating: .nan, count: o * h * w)
            for rows in rowPieces(Int(sk_winograd4_tile_rows(Int32(h)))) {
                #expect(sk_conv3x3_winograd4_fused_rows_with(
                    kernels.rawValue, x, Int32(c), 0, nil, 0, 0, Int32(h), Int32(w), packed, withBias ? bias : nil, Int32(o),
                    relu ? 1 : 0, nil, Int32(rows.lowerBound), Int32(rows.upperBound), &workspace, &pieces) == 0)
            }
            #expect(pieces == winograd, "\(kernels) \(c)->\(o) \(h)x\(w) in pieces")
        }
        var untouched = [Float](repeating: 0, count: o * h * w)
        #expect(sk_conv3x3_winograd4_fused_with(kernels.rawValue, x, Int32(c), 0, nil, 0, 0, 0, Int32(w), packed, bias, Int32(o), 0,
                                                nil, &workspace, &untouched) == -1)
    }

    /// The fused form: a concatenation read from two tensors, either of them possibly upsampled 2x
    /// on the fly, and a residual added after the ReLU.
    static func fused(_ kernels: ConvolutionKernels, a: Int, b: Int, o: Int, h: Int, w: Int, upA: Bool, upB: Bool) {
        var noise = Noise(state: UInt64(a * 31 + b * 7 + o + h * w))
        // The two inputs as stored (half size when upsampled on the fly), then as the convolution sees them.
        let storedA = noise.array(a * h * w / (upA ? 4 : 1)), storedB = noise.array(b * h * w / (upB ? 4 : 1))
        func full(_ stored: [Float], _ channels: Int, _ up: Bool) -> [Float] {
            guard up else { return stored }
            var out = [Float](repeating: .nan, count: channels * h * w)
            _ = sk_resize_bilinear_halfpixel(stored, Int32(channels), Int32(h / 2), Int32(w / 2), Int32(h), Int32(w), &out)
            return out
        }
        let x = full(storedA, a, upA) + full(storedB, b, upB)
        let weight = noise.array(o * (a + b) * 9), bias = noise.array(o)
        let residual = noise.array(o * h * w)
        var packed = [Float](repeating: .nan, count: sk_winograd4_packed_count(Int32(a + b), Int32(o)))
        #expect(sk_winograd4_pack(weight, Int32(a + b), Int32(o), &packed) == 0)
        var workspace = [Float](repeating: .nan, count: sk_winograd4_workspace(Int32(a + b), Int32(o)))
        var scalar = [Float](repeating: .nan, count: o * h * w)
        #expect(sk_conv3x3_portable(x, Int32(a + b), Int32(h), Int32(w), weight, bias, Int32(o), 1, 1, &scalar) == 0)
        let expected = zip(scalar, residual).map { $0 + $1 }
        var fused = [Float](repeating: .nan, count: o * h * w)
        #expect(sk_conv3x3_winograd4_fused_with(kernels.rawValue, storedA, Int32(a), upA ? 1 : 0, storedB, Int32(b), upB ? 1 : 0,
                                                Int32(h), Int32(w), packed, bias, Int32(o), 1, residual, &workspace, &fused) == 0)
        #expect(maxDifference(fused, expected) < 1e-4 * Float(a + b).squareRoot() * 3, "\(kernels) \(a)+\(b)->\(o) \(h)x\(w)")
        // The residual overwritten in place by the sum.
        var inPlace = residual
        let status = inPlace.withUnsafeMutableBufferPointer { buffer in
            sk_conv3x3_winograd4_fused_with(kernels.rawValue, storedA, Int32(a), upA ? 1 : 0, storedB, Int32(b), upB ? 1 : 0,
                                            Int32(h), Int32(w), packed, bias, Int32(o), 1, buffer.baseAddress, &workspace,
                                            buffer.baseAddress)
        }
        #expect(status == 0 && inPlace == fused)
        // By tile rows in pieces, the residual overwritten in place as well.
        var inPieces = residual
        for rows in rowPieces(Int(sk_winograd4_tile_rows(Int32(h)))) {
            let status = inPieces.withUnsafeMutableBufferPointer { buffer in
                sk_conv3x3_winograd4_fused_rows_with(
                    kernels.rawValue, storedA, Int32(a), upA ? 1 : 0, storedB, Int32(b), upB ? 1 : 0, Int32(h), Int32(w), packed, bias,
                    Int32(o), 1, buffer.baseAddress, Int32(rows.lowerBound), Int32(rows.upperBound), &workspace, buffer.baseAddress)
            }
            #expect(status == 0)
        }
        #expect(inPieces == fused, "\(kernels) \(a)+\(b)->\(o) \(h)x\(w) in pieces")
        #expect(sk_conv3x3_winograd4_fused_rows_with(kernels.rawValue, storedA, Int32(a), upA ? 1 : 0, storedB, Int32(b), upB ? 1 : 0,
                                                     Int32(h), Int32(w), packed, bias, Int32(o), 1, nil, 2, 1, &workspace, &fused) == -1)
        // The vector paths upsample and sum the same way: the same floats.
        var avx2 = expected
        #expect(sk_conv3x3_winograd4_fused_with(ConvolutionKernels.avx2.rawValue, storedA, Int32(a), upA ? 1 : 0, storedB, Int32(b),
                                                upB ? 1 : 0, Int32(h), Int32(w), packed, bias, Int32(o), 1, residual, &workspace,
                                                &avx2) == 0)
        #expect(fused == avx2, "\(kernels) \(a)+\(b)->\(o) \(h)x\(w)")
        #expect(sk_conv3x3_winograd4_fused_with(kernels.rawValue, storedA, Int32(a), 0, nil, Int32(b), 0, Int32(h), Int32(w), packed,
                                                bias, Int32(o), 1, nil, &workspace, &fused) == -1)
        #expect(sk_conv3x3_winograd4_fused_with(kernels.rawValue, storedA, Int32(a), 1, storedB, Int32(b), 0, Int32(h), Int32(w | 1),
                                                packed, bias, Int32(o), 1, nil, &workspace, &fused) == -1)
    }

    /// (input channels, output channels, height, width, dilation, first upsampled) for the compact path:
    /// u2net's shapes at 10-40 pixels, a panel of 32 cut short, a concatenation (second input of 24
    /// channels), dilations 2 and 4 on planes they divide and do not.
    static let compact = [
        (64, 64, 20, 20, 1, false), (48, 40, 10, 10, 1, false), (40, 32, 40, 40, 1, true), (16, 80, 13, 22, 1, false),
        (32, 48, 20, 20, 2, false), (24, 32, 20, 20, 4, false), (16, 16, 10, 10, 2, false), (8, 16, 11, 17, 3, false),
    ]

    /// Weights rounded to half precision, which the compact path then holds exactly.
    static func halfRounded(_ values: [Float]) -> [Float] { values.map { Float(Float16($0)) } }

    /// The compact path against the scalar direct convolution (from the same half-rounded weights),
    /// dilation 1 against the packed path too; the AVX2 path gives the same floats, and so do
    /// panels computed in pieces.
    static func compact(_ kernels: ConvolutionKernels, c: Int, o: Int, h: Int, w: Int, dilation: Int, up: Bool) {
        guard sk_winograd4c_supported(kernels.rawValue) == 1 else { return }
        var noise = Noise(state: UInt64(c * 131 + o * 17 + h * 3 + w + dilation))
        let b = dilation == 1 ? min(24, c / 2) : 0, a = c - b  // a concatenation of a and b channels for dilation 1
        let storedA = noise.array(a * h * w / (up ? 4 : 1)), storedB = noise.array(b * h * w)
        var x = storedA
        if up {
            x = [Float](repeating: .nan, count: a * h * w)
            _ = sk_resize_bilinear_halfpixel(storedA, Int32(a), Int32(h / 2), Int32(w / 2), Int32(h), Int32(w), &x)
        }
        x += storedB
        let weight = halfRounded(noise.array(o * c * 9)), bias = noise.array(o), residual = noise.array(o * h * w)
        var half = [UInt16](repeating: 1, count: sk_winograd4c_weight_count(Int32(c), Int32(o)))
        #expect(sk_winograd4c_pack(weight, Int32(c), Int32(o), &half) == 0)
        var scalar = [Float](repeating: .nan, count: o * h * w)
        #expect(sk_conv3x3_portable(x, Int32(c), Int32(h), Int32(w), weight, bias, Int32(o), Int32(dilation), 1, &scalar) == 0)
        let expected = dilation == 1 ? zip(scalar, residual).map { $0 + $1 } : scalar
        func run(_ path: ConvolutionKernels, panels: [Range<Int>]) -> [Float] {
            var th: Int32 = Int32(h), tw: Int32 = Int32(w)
            if dilation > 1 { #expect(sk_dilated_tall_size(Int32(h), Int32(w), Int32(dilation), &th, &tw) == 0) }
            var input = x
            if dilation > 1 {
                input = [Float](repeating: .nan, count: c * Int(th * tw))
                #expect(sk_dilated_gather(x, Int32(c), Int32(h), Int32(w), Int32(dilation), &input) == 0)
            }
            var V = [Float](repeating: .nan, count: sk_winograd4c_input_count(Int32(c), th, tw))
            var scratch = [Float](repeating: .nan, count: sk_winograd4c_scratch_count(Int32(c), th, tw))
            let status = dilation > 1
                ? sk_winograd4c_input_with(path.rawValue, input, Int32(c), 0, nil, 0, 0, th, tw, &scratch, &V)
                : sk_winograd4c_input_with(path.rawValue, up ? storedA : x, Int32(a), up ? 1 : 0, storedB, Int32(b), 0, th, tw,
                                           &scratch, &V)
            #expect(status == 0)
            var out = dilation > 1 ? [Float](repeating: .nan, count: o * Int(th * tw)) : residual
            for range in panels {
                let r: [Float]? = dilation > 1 ? nil : residual
                #expect(sk_winograd4c_output_with(path.rawValue, V, Int32(c), th, tw, half, bias, Int32(o), 1, r,
                                                  Int32(range.lowerBound), Int32(range.upperBound), &scratch, &out) == 0)
            }
            guard dilation > 1 else { return out }
            var scattered = [Float](repeating: .nan, count: o * h * w)
            #expect(sk_dilated_scatter(out, Int32(o), Int32(h), Int32(w), Int32(dilation), &scattered) == 0)
            return scattered
        }
        let panels = Int(sk_winograd4c_panels(Int32(o)))
        let whole = run(kernels, panels: [0..<panels])
        let what = "\(kernels) \(c)->\(o) \(h)x\(w) d\(dilation)"
        #expect(maxDifference(whole, expected) < 1e-4 * Float(c).squareRoot() * 3, "\(what)")
        #expect(run(kernels, panels: rowPieces(panels)) == whole, "\(what) in pieces")
        #expect(run(.avx2, panels: [0..<panels]) == whole, "\(what) on AVX2")
        if dilation == 1, !up {
            // The packed path from the same weights: within the transformed weights' rounding.
            var packed = [Float](repeating: .nan, count: sk_winograd4_packed_count(Int32(c), Int32(o)))
            #expect(sk_winograd4_pack(weight, Int32(c), Int32(o), &packed) == 0)
            var workspace = [Float](repeating: .nan, count: sk_winograd4_workspace(Int32(c), Int32(o)))
            var viaPacked = [Float](repeating: .nan, count: o * h * w)
            #expect(sk_conv3x3_winograd4_fused_with(kernels.rawValue, x, Int32(a), 0, storedB, Int32(b), 0, Int32(h), Int32(w), packed,
                                                    bias, Int32(o), 1, residual, &workspace, &viaPacked) == 0)
            #expect(maxDifference(whole, viaPacked) < 1e-4 * Float(c).squareRoot(), "\(what) against packed")
        }
        let any = [Float](repeating: 0, count: sk_winograd4c_input_count(Int32(c), Int32(h), Int32(w)))
        var scratch = [Float](repeating: 0, count: sk_winograd4c_scratch_count(Int32(c), Int32(h), Int32(w)))
        var untouched = [Float](repeating: 0, count: o * h * w)
        #expect(sk_winograd4c_output_with(kernels.rawValue, any, Int32(c), Int32(h), Int32(w), half, bias, Int32(o), 0, nil, 0,
                                          Int32(panels + 1), &scratch, &untouched) == -1)
        #expect(sk_winograd4c_output_with(ConvolutionKernels.scalar.rawValue, any, Int32(c), Int32(h), Int32(w), half, bias,
                                          Int32(o), 0, nil, 0, 1, &scratch, &untouched) == -1)
        #expect(untouched.allSatisfy { $0 == 0 })
    }

    /// Every check on one path.
    static func all(_ kernels: ConvolutionKernels) {
        for (c, o, h, w, d) in direct { Self.direct(kernels, c: c, o: o, h: h, w: w, dilation: d) }
        for (c, o, h, w) in winograd { Self.winograd(kernels, c: c, o: o, h: h, w: w) }
        for (a, b, o, h, w, upA, upB) in fused { Self.fused(kernels, a: a, b: b, o: o, h: h, w: w, upA: upA, upB: upB) }
        for (c, o, h, w, d, up) in compact { Self.compact(kernels, c: c, o: o, h: h, w: w, dilation: d, up: up) }
    }
}

@Suite(.timeLimit(.minutes(15)))
struct KernelPathTests {
    @Test(.enabled(if: ConvolutionKernels.avx2.isSupported, "this CPU has no AVX2+FMA"))
    func avx2MatchesTheScalarPath() { KernelPathCheck.all(.avx2) }

    @Test(.enabled(if: ConvolutionKernels.avx512.isSupported, "this CPU has no AVX-512F"))
    func avx512MatchesTheScalarPath() { KernelPathCheck.all(.avx512) }

    @Test func pathsAreChosenFromTheCPU() {
        #expect(ConvolutionKernels.scalar.isSupported)
        #expect(ConvolutionKernels.supported.contains(.default))
        // The default is the widest the CPU has unless STICKER_KERNELS narrows it.
        if ProcessInfo.processInfo.environment["STICKER_KERNELS"] == nil {
            #expect(ConvolutionKernels.default == ConvolutionKernels.supported.last)
        }
        #expect(sk_kernels_supported(7) == 0)
        // No Winograd on the scalar path, nor on a path that does not exist.
        var out = [Float](repeating: 0, count: 16)
        let one = [Float](repeating: 1, count: 16 * 16), packed = [Float](repeating: 0, count: sk_winograd4_packed_count(1, 1))
        var workspace = [Float](repeating: 0, count: sk_winograd4_workspace(1, 1))
        for kernels: Int32 in [ConvolutionKernels.scalar.rawValue, 7] {
            #expect(sk_conv3x3_winograd4_fused_with(kernels, one, 1, 0, nil, 0, 0, 4, 4, packed, nil, 1, 0, nil, &workspace, &out) == -1)
        }
        #expect(sk_conv3x3_with(7, one, 1, 4, 4, one, nil, 1, 1, 0, &out) == -1)
    }
}

@Suite(.timeLimit(.minutes(15)))
struct SegmentationKernelTests {
    @Test(arguments: KernelPathCheck.direct)
    func conv3x3MatchesTheReference(c: Int, o: Int, h: Int, w: Int, dilation: Int) {
        var noise = Noise(state: UInt64(c * 1000 + o * 100 + h * 10 + w + dilation))
        let x = noise.array(c * h * w), weight = noise.array(o * c * 9), bias = noise.array(o)
        for relu in [false, true] {
            let expected = referenceConv(x, c: c, h: h, w: w, weight: weight, bias: bias, o: o, kernel: 3, dilation: dilation, relu: relu)
            var fast = [Float](repeating: .nan, count: o * h * w)
            var portable = fast
            #expect(sk_conv3x3(x, Int32(c), Int32(h), Int32(w), weight, bias, Int32(o), Int32(dilation), relu ? 1 : 0, &fast) == 0)
            #expect(sk_conv3x3_portable(x, Int32(c), Int32(h), Int32(w), weight, bias, Int32(o), Int32(dilation), relu ? 1 : 0, &portable) == 0)
            #expect(maxDifference(fast, expected) < 1e-4)
            #expect(maxDifference(portable, expected) < 1e-4)
        }
    }

    /// F(4x4, 3x3) on the default path against the scalar direct convolution.
    @Test(.enabled(if: sk_uses_winograd4() == 1, "needs a vector kernel path (AVX2 or AVX-512; STICKER_KERNELS=scalar turns them off)"), arguments: KernelPathCheck.winograd)
    func winograd4MatchesTheDirectConvolution(c: Int, o: Int, h: Int, w: Int) {
        KernelPathCheck.winograd(.default, c: c, o: o, h: h, w: w)
        var noise = Noise(state: 1)
        let weight = noise.array(o * c * 9)
        var packed = [Float](repeating: .nan, count: sk_winograd4_packed_count(Int32(c), Int32(o)))
        #expect(sk_winograd4_pack(weight, 0, Int32(o), &packed) == -1)
    }

    @Test(.enabled(if: sk_uses_winograd4() == 1, "needs a vector kernel path (AVX2 or AVX-512; STICKER_KERNELS=scalar turns them off)"), arguments: KernelPathCheck.fused)
    func winograd4FusesConcatenationAndResidual(a: Int, b: Int, o: Int, h: Int, w: Int, upA: Bool, upB: Bool) {
        KernelPathCheck.fused(.default, a: a, b: b, o: o, h: h, w: w, upA: upA, upB: upB)
    }

    @Test func conv3x3RejectsBadSizes() {
        var out = [Float](repeating: 0, count: 4)
        let one: [Float] = [1, 1, 1, 1]
        #expect(sk_conv3x3(one, 0, 2, 2, one, nil, 1, 1, 0, &out) == -1)
        #expect(sk_conv3x3(one, 1, 2, 2, one, nil, 1, 0, 0, &out) == -1)
        #expect(sk_conv3x3(one, 1, -2, 2, one, nil, 1, 1, 0, &out) == -1)
        #expect(sk_conv3x3(one, 1, 1 << 20, 1 << 20, one, nil, 1, 1, 0, &out) == -1)
        #expect(sk_conv1x1(one, 1, 2, 0, one, nil, 1, 0, &out) == -1)
        #expect(sk_maxpool2x2_ceil(one, 1, 0, 2, &out) == -1)
        #expect(sk_resize_bilinear_halfpixel(one, 1, 2, 2, 0, 2, &out) == -1)
        #expect(sk_add(one, one, -1, &out) == -1)
    }

    @Test(arguments: [(7, 3, 5, 6, false), (64, 1, 12, 13, false), (3, 4, 9, 9, true)])
    func conv1x1MatchesTheReference(c: Int, o: Int, h: Int, w: Int, relu: Bool) {
        var noise = Noise(state: 7)
        let x = noise.array(c * h * w), weight = noise.array(o * c), bias = noise.array(o)
        let expected = referenceConv(x, c: c, h: h, w: w, weight: weight, bias: bias, o: o, kernel: 1, dilation: 1, relu: relu)
        var out = [Float](repeating: .nan, count: o * h * w)
        #expect(sk_conv1x1(x, Int32(c), Int32(h), Int32(w), weight, bias, Int32(o), relu ? 1 : 0, &out) == 0)
        #expect(maxDifference(out, expected) < 1e-4)
    }

    @Test(arguments: [(2, 5, 7), (3, 1, 1), (1, 4, 3), (4, 10, 10), (2, 1, 9), (3, 9, 1), (3, 2, 2), (2, 6, 14), (5, 20, 20),
                      (2, 5, 37), (1, 3, 40), (2, 4, 49)])
    func maxPoolCeilModeClipsOddBorders(c: Int, h: Int, w: Int) {
        var noise = Noise(state: 3)
        let x = noise.array(c * h * w)
        var out = [Float](repeating: .nan, count: c * ((h + 1) / 2) * ((w + 1) / 2))
        #expect(sk_maxpool2x2_ceil(x, Int32(c), Int32(h), Int32(w), &out) == 0)
        #expect(out == referenceMaxPool(x, c: c, h: h, w: w))
    }

    @Test(arguments: [(2, 3, 5, 7, 11), (1, 5, 5, 10, 10), (2, 2, 3, 64, 96), (1, 10, 10, 320, 320), (1, 9, 7, 4, 3), (1, 1, 1, 3, 3),
                          (3, 1, 1, 2, 2), (2, 1, 6, 2, 12), (4, 7, 3, 14, 6), (2, 20, 20, 40, 40)])
    func resizeUsesHalfPixelCentres(c: Int, h: Int, w: Int, ho: Int, wo: Int) {
        var noise = Noise(state: 5)
        let x = noise.array(c * h * w)
        var out = [Float](repeating: .nan, count: c * ho * wo)
        #expect(sk_resize_bilinear_halfpixel(x, Int32(c), Int32(h), Int32(w), Int32(ho), Int32(wo), &out) == 0)
        #expect(maxDifference(out, referenceResize(x, c: c, h: h, w: w, ho: ho, wo: wo)) < 1e-5)
    }

    @Test func addAndSigmoid() {
        var noise = Noise(state: 11)
        let a = noise.array(37).map { $0 * 10 }, b = noise.array(37)
        var sum = [Float](repeating: 0, count: 37)
        #expect(sk_add(a, b, 37, &sum) == 0)
        #expect(sum == zip(a, b).map { $0 + $1 })
        var s = [Float](repeating: 0, count: 37)
        #expect(sk_sigmoid(a, 37, &s) == 0)
        #expect(maxDifference(s, a.map { Float(1 / (1 + exp(-Double($0)))) }) < 1e-6)
    }
}
