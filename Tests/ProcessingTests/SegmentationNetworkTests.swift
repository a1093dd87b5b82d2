import CSegmentationKernels
import Foundation
import Testing
@testable import Processing

/// Deterministic pseudo-random floats in -1 ..< 1 (64-bit LCG).
private struct Noise {
    var state: UInt64
    mutating func next() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(Int64(bitPattern: state >> 11) % 2_000_000) / 1_000_000 - 1
    }
    mutating func array(_ count: Int) -> [Float] { (0..<count).map { _ in next() } }
}

// MARK: naive references (CHW planes, N = 1)

private func referenceConv(_ x: [Float], c: Int, h: Int, w: Int, weight: [Float], bias: [Float], o: Int,
                           kernel: Int, dilation d: Int, relu: Bool) -> [Float] {
    var y = [Float](repeating: 0, count: o * h * w)
    let half = kernel / 2
    for oc in 0..<o {
        for row in 0..<h {
            for col in 0..<w {
                var sum = Double(bias[oc])
                for ic in 0..<c {
                    for ky in 0..<kernel {
                        for kx in 0..<kernel {
                            let iy = row + (ky - half) * d, ix = col + (kx - half) * d
                            guard iy >= 0, iy < h, ix >= 0, ix < w else { continue }
                            sum += Double(weight[((oc * c + ic) * kernel + ky) * kernel + kx]) * Double(x[(ic * h + iy) * w + ix])
                        }
                    }
                }
                y[(oc * h + row) * w + col] = relu ? Float(max(sum, 0)) : Float(sum)
            }
        }
    }
    return y
}

private func referenceMaxPool(_ x: [Float], c: Int, h: Int, w: Int) -> [Float] {
    let ho = (h + 1) / 2, wo = (w + 1) / 2
    var y: [Float] = []
    for ch in 0..<c {
        for row in 0..<ho {
            for col in 0..<wo {
                var m = -Float.infinity
                for iy in 2 * row..<min(2 * row + 2, h) {
                    for ix in 2 * col..<min(2 * col + 2, w) { m = max(m, x[(ch * h + iy) * w + ix]) }
                }
                y.append(m)
            }
        }
    }
    return y
}

private func referenceResize(_ x: [Float], c: Int, h: Int, w: Int, ho: Int, wo: Int) -> [Float] {
    func axis(_ i: Int, _ nIn: Int, _ nOut: Int) -> (Int, Int, Double) {
        let src = max((Double(i) + 0.5) * Double(nIn) / Double(nOut) - 0.5, 0)
        let i0 = min(Int(src.rounded(.down)), nIn - 1)
        return (i0, min(i0 + 1, nIn - 1), src - Double(i0))
    }
    var y: [Float] = []
    for ch in 0..<c {
        for row in 0..<ho {
            let (y0, y1, fy) = axis(row, h, ho)
            for col in 0..<wo {
                let (x0, x1, fx) = axis(col, w, wo)
                func at(_ r: Int, _ q: Int) -> Double { Double(x[(ch * h + r) * w + q]) }
                let top = at(y0, x0) * (1 - fx) + at(y0, x1) * fx
                let bottom = at(y1, x0) * (1 - fx) + at(y1, x1) * fx
                y.append(Float(top * (1 - fy) + bottom * fy))
            }
        }
    }
    return y
}

private func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
    precondition(a.count == b.count)
    return zip(a, b).map { abs($0 - $1) }.max() ?? 0
}

/// Every kernel path against the scalar one: the shapes below through `sk_conv3x3_with` and
/// `sk_conv3x3_winograd4_fused_with` on one path, compared with `sk_conv3x3_portable` (itself
/// checked against the double-precision reference in `SegmentationKernelTests`).
private enum KernelPathCheck {
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

// MARK: the network

/// Writes a graph and weights into a fresh temporary folder.
private func modelFiles(graph: [String: Any], weights: [Float]) throws -> (URL, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segnet-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let graphURL = folder.appendingPathComponent("tiny.json"), weightsURL = folder.appendingPathComponent("tiny.bin")
    try JSONSerialization.data(withJSONObject: graph).write(to: graphURL)
    try weights.withUnsafeBytes { Data($0) }.write(to: weightsURL)
    return (graphURL, weightsURL)
}

/// A tiny graph with every op: conv3x3 d2 + relu, ceil pool, resize back, add, concat, 1x1 conv, sigmoid.
private func tinyGraph(weightBytes: Int = 4 * (4 * 3 * 9 + 4 + 8 + 1)) -> [String: Any] {
    let conv: [String: Any] = [
        "op": "conv2d", "input": "x", "output": "c", "weight": "w1", "bias": "b1", "kernel": [3, 3], "stride": [1, 1],
        "pad": [2, 2, 2, 2], "dilation": [2, 2], "group": 1, "activation": "relu", "macs": 0,
    ]
    return [
        "format": "sticker-nn-graph", "version": 1,
        "weights": ["file": "tiny.bin", "bytes": weightBytes, "dtype": "f32le"],
        "input": ["name": "x", "shape": [1, 3, 7, 9]],
        "outputs": [["name": "y", "shape": [1, 1, 7, 9]]],
        "tensors": ["x": [1, 3, 7, 9], "c": [1, 4, 7, 9], "p": [1, 4, 4, 5], "r": [1, 4, 7, 9], "s": [1, 4, 7, 9],
                    "k": [1, 8, 7, 9], "z": [1, 1, 7, 9], "y": [1, 1, 7, 9]],
        "params": [
            "w1": ["offset": 0, "shape": [4, 3, 3, 3], "count": 108], "b1": ["offset": 432, "shape": [4], "count": 4],
            "w2": ["offset": 448, "shape": [1, 8, 1, 1], "count": 8], "b2": ["offset": 480, "shape": [1], "count": 1],
        ],
        "nodes": [
            conv,
            ["op": "maxpool2d", "input": "c", "output": "p", "kernel": [2, 2], "stride": [2, 2], "pad": [0, 0, 0, 0], "ceil_mode": true],
            ["op": "resize_bilinear", "input": "p", "output": "r", "size": [7, 9], "like": "c", "coordinate_mode": "half_pixel"],
            ["op": "add", "inputs": ["r", "c"], "output": "s"],
            ["op": "concat", "inputs": ["s", "c"], "output": "k", "axis": 1],
            ["op": "conv2d", "input": "k", "output": "z", "weight": "w2", "bias": "b2", "kernel": [1, 1], "stride": [1, 1],
             "pad": [0, 0, 0, 0], "dilation": [1, 1], "group": 1, "activation": NSNull(), "macs": 0],
            ["op": "sigmoid", "input": "z", "output": "y"],
        ],
    ]
}

@Suite(.timeLimit(.minutes(15)))
struct SegmentationNetworkTests {
    @Test func tinyGraphMatchesTheReferences() throws {
        var noise = Noise(state: 21)
        let weights = noise.array(4 * 3 * 9 + 4 + 8 + 1)
        let (graphURL, weightsURL) = try modelFiles(graph: tinyGraph(), weights: weights)
        let network = try SegmentationNetwork(graph: graphURL, weights: weightsURL)
        #expect(network.inputWidth == 9 && network.inputHeight == 7)
        let x = noise.array(3 * 7 * 9)
        let got = try network.run(x)

        let c = referenceConv(x, c: 3, h: 7, w: 9, weight: Array(weights[0..<108]), bias: Array(weights[108..<112]), o: 4,
                              kernel: 3, dilation: 2, relu: true)
        let p = referenceMaxPool(c, c: 4, h: 7, w: 9)
        let r = referenceResize(p, c: 4, h: 4, w: 5, ho: 7, wo: 9)
        let k = zip(r, c).map { $0 + $1 } + c
        let z = referenceConv(k, c: 8, h: 7, w: 9, weight: Array(weights[112..<120]), bias: [weights[120]], o: 1,
                              kernel: 1, dilation: 1, relu: false)
        #expect(maxDifference(got, z.map { 1 / (1 + exp(-$0)) }) < 1e-5)
    }

    /// Concatenations, 2x resizes and residual adds around F(4x4, 3x3) convolutions are fused away;
    /// the result must equal the unfused graph's (the direct path materialises them).
    @Test(.enabled(if: sk_uses_winograd4() == 1, "needs a vector kernel path (AVX2 or AVX-512; STICKER_KERNELS=scalar turns them off)"))
    func fusedConcatenationAndAddMatchTheUnfusedGraph() throws {
        // x(3) -> a = conv(x) 8ch relu; b = conv(x) 8ch; u = resize(maxpool(a)) 2x; k = concat(u, b) 16ch;
        // c = conv(k) 8ch relu; s = c + b; m = concat(s, a); z = conv1x1(m) -> sigmoid. u, k and c + b
        // fuse; m feeds a 1x1, so it does not.
        func conv(_ input: String, _ output: String, _ weight: String, _ bias: String, kernel: Int, relu: Bool) -> [String: Any] {
            ["op": "conv2d", "input": input, "output": output, "weight": weight, "bias": bias, "kernel": [kernel, kernel],
             "stride": [1, 1], "pad": Array(repeating: kernel / 2, count: 4), "dilation": [1, 1], "group": 1,
             "activation": relu ? "relu" : NSNull()]
        }
        let sizes = [("wa", [8, 3, 3, 3]), ("ba", [8]), ("wb", [8, 3, 3, 3]), ("bb", [8]), ("wc", [8, 16, 3, 3]), ("bc", [8]),
                     ("wz", [1, 16, 1, 1]), ("bz", [1])]
        var params: [String: Any] = [:]
        var offset = 0
        for (name, shape) in sizes {
            let count = shape.reduce(1, *)
            params[name] = ["offset": offset * 4, "shape": shape, "count": count]
            offset += count
        }
        let (h, w) = (14, 22)
        let graph: [String: Any] = [
            "format": "sticker-nn-graph", "version": 1,
            "weights": ["file": "f.bin", "bytes": offset * 4, "dtype": "f32le"],
            "input": ["name": "x", "shape": [1, 3, h, w]],
            "outputs": [["name": "y", "shape": [1, 1, h, w]]],
            "tensors": ["x": [1, 3, h, w], "a": [1, 8, h, w], "b": [1, 8, h, w], "k": [1, 16, h, w], "c": [1, 8, h, w],
                        "p": [1, 8, h / 2, w / 2], "u": [1, 8, h, w],
                        "s": [1, 8, h, w], "m": [1, 16, h, w], "z": [1, 1, h, w], "y": [1, 1, h, w]],
            "params": params,
            "nodes": [
                conv("x", "a", "wa", "ba", kernel: 3, relu: true), conv("x", "b", "wb", "bb", kernel: 3, relu: false),
                ["op": "maxpool2d", "input": "a", "output": "p", "kernel": [2, 2], "stride": [2, 2], "pad": [0, 0, 0, 0], "ceil_mode": true],
                ["op": "resize_bilinear", "input": "p", "output": "u", "size": [h, w], "coordinate_mode": "half_pixel"],
                ["op": "concat", "inputs": ["u", "b"], "output": "k", "axis": 1],
                conv("k", "c", "wc", "bc", kernel: 3, relu: true),
                ["op": "add", "inputs": ["c", "b"], "output": "s"],
                ["op": "concat", "inputs": ["s", "a"], "output": "m", "axis": 1],
                conv("m", "z", "wz", "bz", kernel: 1, relu: false),
                ["op": "sigmoid", "input": "z", "output": "y"],
            ],
        ]
        var noise = Noise(state: 99)
        let (graphURL, weightsURL) = try modelFiles(graph: graph, weights: noise.array(offset).map { $0 * 0.5 })
        let network = try SegmentationNetwork(graph: graphURL, weights: weightsURL, keepsDirectWeights: true)
        let x = noise.array(3 * h * w)
        let fused = try network.run(x), unfused = try network.run(x, winograd: false)
        #expect(maxDifference(fused, unfused) < 1e-5)
        #expect(Set(fused).count > 100)
        // Every path the CPU has, against a network loaded for the scalar path (nothing fused).
        let scalarNetwork = try SegmentationNetwork(graph: graphURL, weights: weightsURL, kernels: .scalar)
        #expect(scalarNetwork.kernels == .scalar)
        let scalar = try scalarNetwork.run(x)
        for kernels in ConvolutionKernels.supported {
            #expect(maxDifference(try network.run(x, kernels: kernels), scalar) < 1e-5, "\(kernels)")
        }
    }

    /// Layers with many channels on a small plane run from compact (half-precision) weights, a dilated
    /// one on its subplanes; with weights half precision holds, the map is the direct path's.
    @Test(.enabled(if: sk_winograd4c_supported(ConvolutionKernels.default.rawValue) == 1, "needs AVX2 or AVX-512 with F16C"))
    func compactLayersMatchTheDirectPath() throws {
        func conv(_ input: String, _ output: String, _ name: String, kernel: Int, dilation: Int = 1) -> [String: Any] {
            ["op": "conv2d", "input": input, "output": output, "weight": "w" + name, "bias": "b" + name, "kernel": [kernel, kernel],
             "stride": [1, 1], "pad": Array(repeating: kernel == 3 ? dilation : 0, count: 4), "dilation": [dilation, dilation],
             "group": 1, "activation": "relu"]
        }
        let (h, w) = (12, 20)
        let sizes = [("wa", [128, 3, 3, 3]), ("ba", [128]), ("wb", [128, 128, 3, 3]), ("bb", [128]),
                     ("wc", [128, 128, 3, 3]), ("bc", [128]), ("wz", [1, 128, 1, 1]), ("bz", [1])]
        var params: [String: Any] = [:]
        var offset = 0
        for (name, shape) in sizes {
            let count = shape.reduce(1, *)
            params[name] = ["offset": offset * 4, "shape": shape, "count": count]
            offset += count
        }
        let graph: [String: Any] = [
            "format": "sticker-nn-graph", "version": 1,
            "weights": ["file": "f.bin", "bytes": offset * 4, "dtype": "f32le"],
            "input": ["name": "x", "shape": [1, 3, h, w]],
            "outputs": [["name": "y", "shape": [1, 1, h, w]]],
            "tensors": ["x": [1, 3, h, w], "a": [1, 128, h, w], "b": [1, 128, h, w], "c": [1, 128, h, w], "z": [1, 1, h, w],
                        "y": [1, 1, h, w]],
            "params": params,
            "nodes": [conv("x", "a", "a", kernel: 3), conv("a", "b", "b", kernel: 3), conv("b", "c", "c", kernel: 3, dilation: 2),
                      conv("c", "z", "z", kernel: 1), ["op": "sigmoid", "input": "z", "output": "y"]],
        ]
        var noise = Noise(state: 5)
        let weights = KernelPathCheck.halfRounded(noise.array(offset).map { $0 * 0.1 })
        let (graphURL, weightsURL) = try modelFiles(graph: graph, weights: weights)
        let network = try SegmentationNetwork(graph: graphURL, weights: weightsURL, keepsDirectWeights: true)
        #expect(network.stepNames.filter { $0.contains("compact") }.count == 2, "\(network.stepNames)")
        let x = noise.array(3 * h * w)
        let compact = try network.run(x), direct = try network.run(x, winograd: false)
        #expect(maxDifference(compact, direct) < 1e-5)
        #expect(Set(compact).count > 100)
        // Without the float32 weights (how networks load), the same map, a fraction of the weights kept.
        let lean = try SegmentationNetwork(graph: graphURL, weights: weightsURL)
        #expect(try lean.run(x) == compact)
        #expect(lean.weightBytes < network.weightBytes / 2)
    }

    @Test func predictPreparesTheImageLikeRembg() throws {
        var noise = Noise(state: 2)
        let (graphURL, weightsURL) = try modelFiles(graph: tinyGraph(), weights: noise.array(121))
        let network = try SegmentationNetwork(graph: graphURL, weights: weightsURL)
        let image = RGBAImage(width: 9, height: 7, pixels: (0..<(9 * 7 * 4)).map { UInt8(($0 * 37) % 200) })
        let input = network.preprocessed(image)
        // The largest channel value is 199 (alpha, every fourth byte, is ignored).
        let maximum = Float(image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element).max() ?? 1)
        let pixel = image.pixel(x: 4, y: 3)
        #expect(abs(input[0 * 63 + 3 * 9 + 4] - (Float(pixel.red) / maximum - 0.485) / 0.229) < 1e-5)
        #expect(abs(input[2 * 63 + 3 * 9 + 4] - (Float(pixel.blue) / maximum - 0.406) / 0.225) < 1e-5)
        let map = try network.predict(image)
        #expect(map.count == 63 && map.allSatisfy { $0 > 0 && $0 < 1 })
    }

    /// Each change makes the tiny graph invalid; loading must throw, not crash.
    @Test(arguments: [
        "bad-json", "format", "bytes", "param-outside", "param-misaligned", "param-shape", "unknown-op", "read-before-write",
        "dilation-pad", "pool-shape", "concat-channels", "missing-output", "written-twice", "huge-tensor", "missing-param",
    ])
    func malformedModelsThrow(_ defect: String) throws {
        var graph = tinyGraph()
        var weights = [Float](repeating: 0.5, count: 121)
        var nodes = graph["nodes"] as! [[String: Any]]
        var params = graph["params"] as! [String: [String: Any]]
        var tensors = graph["tensors"] as! [String: [Int]]
        switch defect {
        case "format": graph["version"] = 2
        case "bytes": weights.removeLast()
        case "param-outside": params["b2"]?["offset"] = 484
        case "param-misaligned": params["w2"]?["offset"] = 446
        case "param-shape": params["w1"]?["shape"] = [4, 3, 3, 2]
        case "unknown-op": nodes[6]["op"] = "softmax"
        case "read-before-write": nodes.swapAt(1, 2)
        case "dilation-pad": nodes[0]["pad"] = [1, 1, 1, 1]
        case "pool-shape": tensors["p"] = [1, 4, 3, 4]
        case "concat-channels": tensors["k"] = [1, 7, 7, 9]
        case "missing-output": graph["outputs"] = [["name": "nowhere", "shape": [1, 1, 7, 9]]]
        case "written-twice": nodes[3]["output"] = "c"
        case "huge-tensor": tensors["x"] = [1, 3, 70000, 9]
        case "missing-param": params["b1"] = nil
        default: break
        }
        graph["nodes"] = nodes
        graph["params"] = params
        graph["tensors"] = tensors
        if defect == "bytes" { graph["weights"] = ["file": "tiny.bin", "bytes": 484, "dtype": "f32le"] }
        var (graphURL, weightsURL) = try modelFiles(graph: graph, weights: weights)
        if defect == "bad-json" {
            try Data("{\"format\": \"sticker-nn-graph\", \"version\": 1, \"nodes\": [".utf8).write(to: graphURL)
        }
        if defect == "bytes" { weightsURL = weightsURL.appendingPathExtension("missing") }
        #expect {
            _ = try SegmentationNetwork(graph: graphURL, weights: weightsURL)
        } throws: { error in
            guard case .invalidModel = error as? ProcessingError else { return false }
            return true
        }
        if defect == "bytes" {
            // The file exists but is 4 bytes shorter than the graph says.
            let (graphURL, weightsURL) = try modelFiles(graph: graph, weights: weights)
            #expect(throws: ProcessingError.self) { try SegmentationNetwork(graph: graphURL, weights: weightsURL) }
        }
    }
}

/// The real u2netp, only when `STICKER_U2NETP_DIR` holds u2netp.json and u2netp.bin.
@Suite(.timeLimit(.minutes(15)))
struct U2NetPTests {
    static let folder: URL? = ProcessInfo.processInfo.environment["STICKER_U2NETP_DIR"].map { URL(fileURLWithPath: $0) }

    /// A 320 x 320 scene (no resizing involved): a warm disc on a cool gradient.
    static func scene() -> RGBAImage {
        var pixels: [UInt8] = []
        for y in 0..<320 {
            for x in 0..<320 {
                let dx = x - 170, dy = y - 150
                if dx * dx + dy * dy < 90 * 90 {
                    pixels += [UInt8(200 + (x + y) % 40), UInt8(60 + x % 50), UInt8(40 + y % 30), 255]
                } else {
                    pixels += [UInt8(30 + x / 8), UInt8(80 + y / 4), UInt8(150 + (x + y) / 10), 255]
                }
            }
        }
        return RGBAImage(width: 320, height: 320, pixels: pixels)
    }

    @Test(.enabled(if: folder != nil, "set STICKER_U2NETP_DIR to a folder with u2netp.json and u2netp.bin"))
    func matchesOnnxRuntime() throws {
        let folder = try #require(Self.folder)
        let network = try SegmentationNetwork(graph: folder.appendingPathComponent("u2netp.json"),
                                              weights: folder.appendingPathComponent("u2netp.bin"))
        #expect(network.multiplyAdds == 19_756_089_600)
        let map = try network.predict(Self.scene())
        #expect(map.count == 320 * 320)
        // Fingerprint of onnxruntime 1 thread on the same input (see the commit message).
        let mean = map.reduce(0, +) / Float(map.count)
        #expect(abs(mean - Fingerprint.mean) < 1e-4)
        for (index, value) in Fingerprint.samples {
            #expect(abs(map[index] - value) < 1e-3, "pixel \(index)")
        }
    }
}

extension U2NetPTests {
    /// Layers shared by two workers (a spare core) give the same map, float for float, on
    /// every path, directly and by Winograd.
    @Test(.enabled(if: folder != nil, "set STICKER_U2NETP_DIR to a folder with u2netp.json and u2netp.bin"))
    func layersSharedWithASpareCoreGiveTheSameMap() throws {
        let folder = try #require(Self.folder)
        let network = try SegmentationNetwork(graph: folder.appendingPathComponent("u2netp.json"),
                                              weights: folder.appendingPathComponent("u2netp.bin"), keepsDirectWeights: true)
        let input = network.preprocessed(Self.scene())
        let helpedBefore = SharedRows.piecesOnSecondWorker.load(ordering: .relaxed)
        for kernels in ConvolutionKernels.supported {
            for winograd in kernels.hasWinograd ? [true, false] : [false] {
                let alone = try network.run(input, kernels: kernels, winograd: winograd, spare: nil)
                let shared = try network.run(input, kernels: kernels, winograd: winograd, spare: SpareCores(jobs: 2, cores: 2))
                #expect(shared == alone, "\(kernels), Winograd \(winograd)")
            }
        }
        // A budget with no spare core never shares.
        let busy = SpareCores(jobs: 1, cores: 2)
        #expect(try network.run(input, spare: busy) == network.run(input, spare: nil))
        #expect(SharedRows.piecesOnSecondWorker.load(ordering: .relaxed) > helpedBefore, "no piece ran on the second worker")
    }

    /// Not a timed test: with `STICKER_BENCH_NETWORK=N` it prints the network's thread CPU time per
    /// prediction (median of N) on every vector path the CPU has, the runs interleaved (AVX2,
    /// AVX-512, AVX2, ...) so both see the same machine load, the ratio of the medians, and the
    /// same per layer class (steps grouped by op, channels and size; the median of each group's
    /// per-run sum); then the direct 3x3 convolutions once, and checks the maps agree.
    /// `STICKER_U2NETP_DIR=.build/test-model STICKER_BENCH_NETWORK=9 swift test --filter networkTiming`
    static let benchRuns = ProcessInfo.processInfo.environment["STICKER_BENCH_NETWORK"].flatMap { Int($0) }

    @Test(.enabled(if: folder != nil && benchRuns != nil, "set STICKER_U2NETP_DIR and STICKER_BENCH_NETWORK=runs"))
    func networkTiming() throws {
        try Self.timing(model: "u2netp", folder: #require(Self.folder))
    }

    /// `networkTiming` for `model` (NAME.json and NAME.bin in `folder`): the load's thread CPU time
    /// and the weights it keeps, the predictions per path and layer class, then the map of a
    /// network that runs every 3x3 convolution directly from the float32 weights.
    static func timing(model: String, folder: URL) throws {
        func cpu() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        func ms(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000) }
        let loadStart = cpu()
        let network = try SegmentationNetwork(graph: folder.appendingPathComponent(model + ".json"),
                                              weights: folder.appendingPathComponent(model + ".bin"))
        print("\(model) load CPU s: \(String(format: "%.3f", cpu() - loadStart)); weights kept: \(network.weightBytes / 1_000_000) MB; "
              + "activation slots: \(network.activationFloats * 4 / 1_000_000) MB")
        let input = network.preprocessed(Self.scene())
        let paths = ConvolutionKernels.supported.filter(\.hasWinograd)
        let names = network.stepNames
        let groups = Array(Set(names)).sorted()
        var totals: [ConvolutionKernels: [Double]] = [:]
        var groupTimes: [ConvolutionKernels: [String: [Double]]] = [:]
        var maps: [ConvolutionKernels: [Float]] = [:]
        for _ in 0..<max(1, Self.benchRuns ?? 1) {
            for kernels in paths {
                var steps = [Double](repeating: 0, count: names.count)
                let start = cpu()
                maps[kernels] = try network.run(input, kernels: kernels, stepTime: { steps[$0] = $1 })
                totals[kernels, default: []].append(cpu() - start)
                var sums: [String: Double] = [:]
                for (index, time) in steps.enumerated() { sums[names[index], default: 0] += time }
                for (name, time) in sums { groupTimes[kernels, default: [:]][name, default: []].append(time) }
            }
        }
        for kernels in paths {
            let times = try #require(totals[kernels])
            print("\(model) \(kernels) CPU ms per prediction: median \(ms(median(times))) of \(times.map(ms))")
        }
        if paths.count > 1, let first = paths.first, let last = paths.last,
           let a = totals[first], let b = totals[last] {
            print("\(model) \(last) / \(first): \(String(format: "%.3f", median(b) / median(a))) (medians of one interleaved run)")
        }
        print("layer class | count | " + paths.map { "\($0) ms" }.joined(separator: " | ") + (paths.count > 1 ? " | ratio" : ""))
        let widest = paths.last ?? .scalar, base = paths.first ?? .scalar
        for group in groups.sorted(by: { median(groupTimes[base]?[$0] ?? [0]) > median(groupTimes[base]?[$1] ?? [0]) }) {
            let medians = paths.map { median(groupTimes[$0]?[group] ?? [0]) }
            let ratio = paths.count > 1 ? String(format: " | %.2f", median(groupTimes[widest]?[group] ?? [0]) / max(medians[0], 1e-9)) : ""
            print("\(group) | \(names.filter { $0 == group }.count) | " + medians.map(ms).joined(separator: " | ") + ratio)
        }
        let directNetwork = try SegmentationNetwork(graph: folder.appendingPathComponent(model + ".json"),
                                                    weights: folder.appendingPathComponent(model + ".bin"), keepsDirectWeights: true)
        let start = cpu()
        let direct = try directNetwork.run(input, winograd: false)
        print("\(model) direct 3x3 (\(network.kernels)) CPU ms: \(ms(cpu() - start))")
        for kernels in paths {
            let map = try #require(maps[kernels])
            let difference = zip(map, direct).map { abs($0 - $1) }.max() ?? 0
            print("\(model) \(kernels) vs direct: max abs difference \(difference)")
            #expect(difference < 1e-3)
        }
        // The AVX-512 path computes the same floats as the AVX2 one (same sums, same order).
        if let first = paths.first, let last = paths.last, first != last {
            print("\(model) \(last) map equals \(first)'s: \(maps[first] == maps[last])")
            #expect(maps[first] == maps[last])
        }
    }
}

/// onnxruntime 1.x (1 thread) on `U2NetPTests.scene()` prepared the same way (mean over the
/// 320 x 320 map, and flat indices y * 320 + x), computed once with the exporter's venv.
private enum Fingerprint {
    static let mean: Float = 0.24939602
    static let samples: [(Int, Float)] = [
        (1605, 1.3619661e-05), (48170, 0.99999535), (48260, 0.22281217), (48262, 0.0040215552),
        (76970, 0.2286011), (19300, 3.516674e-06), (102399, 0.00068736076), (32300, 7.957220e-06),
    ]
}

/// The real u2net, only when `STICKER_U2NET_DIR` holds u2net.json and u2net.bin. Its layers of
/// 40 x 40 and below run from half-precision weights (`SegmentationNetworkLoader.runsCompact`), so
/// its map is compared with onnxruntime's within what that rounding moves.
@Suite(.timeLimit(.minutes(15)))
struct U2NetTests {
    static let folder: URL? = ProcessInfo.processInfo.environment["STICKER_U2NET_DIR"].map { URL(fileURLWithPath: $0) }

    @Test(.enabled(if: folder != nil, "set STICKER_U2NET_DIR to a folder with u2net.json and u2net.bin"))
    func matchesOnnxRuntime() throws {
        let folder = try #require(Self.folder)
        let network = try SegmentationNetwork(graph: folder.appendingPathComponent("u2net.json"),
                                              weights: folder.appendingPathComponent("u2net.bin"))
        #expect(network.multiplyAdds == 58_598_246_400)
        let map = try network.predict(U2NetPTests.scene())
        #expect(map.count == 320 * 320)
        let mean = map.reduce(0, +) / Float(map.count)
        #expect(abs(mean - U2NetFingerprint.mean) < 1e-3, "mean \(mean)")
        for (index, value) in U2NetFingerprint.samples {
            #expect(abs(map[index] - value) < 1e-2, "pixel \(index): \(map[index]) against \(value)")
        }
        // With `STICKER_U2NET_REFERENCE` naming the whole map (reference_map.py --save FILE): the largest difference.
        if let path = ProcessInfo.processInfo.environment["STICKER_U2NET_REFERENCE"],
           let data = FileManager.default.contents(atPath: path), data.count == 320 * 320 * 4 {
            let reference = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let differences = zip(map, reference).map { abs($0 - $1) }
            let largest = differences.max() ?? 0
            let mean = differences.reduce(0, +) / Float(differences.count)
            print("u2net against onnxruntime: max abs difference \(largest), mean \(mean), above 0.01: \(differences.filter { $0 > 0.01 }.count)")
            #expect(largest < 0.05)
        }
    }

    /// `U2NetPTests.networkTiming` for u2net: `STICKER_U2NET_DIR=DIR STICKER_BENCH_NETWORK=5 swift test --filter u2netTiming`.
    @Test(.enabled(if: folder != nil && U2NetPTests.benchRuns != nil, "set STICKER_U2NET_DIR and STICKER_BENCH_NETWORK=runs"))
    func u2netTiming() throws {
        try U2NetPTests.timing(model: "u2net", folder: #require(Self.folder))
    }
}

/// onnxruntime 1.32 (1 thread) on `U2NetPTests.scene()` with u2net.onnx, from
/// `Benchmarks/cutout/reference_map.py`: the mean of the 320 x 320 map, and values at flat indices
/// y * 320 + x (the last eight on the disc's edge, where u2net's map is neither 0 nor 1).
private enum U2NetFingerprint {
    static let mean: Float = 0.24841787
    static let samples: [(Int, Float)] = [
        (1605, 2.9802322e-08), (48170, 1), (48260, 0.01291573), (48262, 6.5803528e-05), (76970, 0.082314849),
        (19300, 5.9604645e-08), (102399, 4.2945147e-05), (32300, 0), (19357, 0.059368998), (22290, 0.38993943),
        (30962, 0.39466548), (42962, 0.92701709), (56895, 0.87003815), (67624, 0.8019495), (74763, 0.90573514),
        (76981, 0.067236423),
    ]
}
