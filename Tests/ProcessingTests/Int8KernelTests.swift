import CSegmentationKernels
import Foundation
import Testing
@testable import Processing

/// The int8 convolution (`int8_conv.h`): every path this CPU has gives the scalar path's floats,
/// bit for bit, whatever the rows each call is given; the result is the float32 convolution of the
/// same input within what 8-bit quantization moves; bad arguments are refused without writing.
struct Int8KernelTests {
    /// (input channels, second input's, outputs, height, width, dilation, first upsampled, residual):
    /// channel counts off the quads and the blocks of 8 outputs, planes narrower than a vector,
    /// dilations wider than the plane, fused concatenations and resizes, u2net's deep shapes.
    static let shapes = [
        (16, 0, 16, 13, 11, 1, false, false), (6, 3, 5, 7, 5, 1, false, true), (64, 0, 64, 40, 40, 2, false, true),
        (32, 16, 16, 20, 20, 4, true, false), (13, 0, 9, 3, 3, 8, false, false), (1, 0, 1, 1, 1, 1, false, false),
        (8, 8, 24, 6, 50, 1, true, true), (512, 0, 16, 10, 10, 1, false, false), (5, 0, 8, 2, 97, 2, false, false),
    ]

    static var paths: [Int32] {
        [SK_Q8_SCALAR, SK_Q8_AVX2, SK_Q8_AVXVNNI, SK_Q8_AVX512VNNI].map { Int32($0) }.filter { sk_q8_supported($0) == 1 }
    }

    struct Layer {
        var input: [Float], second: [Float], weight: [Float], bias: [Float], residual: [Float]
        var c: Int, c2: Int, o: Int, h: Int, w: Int, d: Int, up: Bool, withResidual: Bool

        init(_ shape: (Int, Int, Int, Int, Int, Int, Bool, Bool)) {
            (c, c2, o, h, w, d, up, withResidual) = shape
            var noise = Noise(state: UInt64(c * 7919 + c2 * 104_729 + o * 31 + h * 17 + w + d))
            let plane = up ? (h / 2) * (w / 2) : h * w
            // ReLU outputs: a third zeros, the rest in 0 ..< 3.
            input = noise.array(c * plane).map { $0 < -0.33 ? 0 : ($0 + 0.33) * 2.25 }
            second = noise.array(c2 * h * w).map { max(0, $0 * 2) }
            weight = noise.array(o * (c + c2) * 9).map { $0 * 0.5 }
            bias = noise.array(o).map { $0 * 0.5 }
            residual = withResidual ? noise.array(o * h * w) : []
        }

        /// The quads, their scale, the packed weights and scales.
        func quantized() throws -> (quads: [UInt8], scales: [Float], packed: [Int8], wscale: [Float]) {
            let channels = Int32(c + c2)
            var quads = [UInt8](repeating: 0xAB, count: sk_q8_input_bytes(channels, Int32(h), Int32(w), Int32(d)))
            var scales: [Float] = [0, 0]
            let quantizedInput = sk_q8_input(input, Int32(c), up ? 1 : 0, c2 > 0 ? second : nil, Int32(c2), 0, Int32(h), Int32(w),
                                             Int32(d), &scales, &quads)
            try #require(quantizedInput == 0)
            var packed = [Int8](repeating: 0, count: sk_q8_packed_bytes(channels, Int32(o)))
            var wscale = [Float](repeating: 0, count: o)
            try #require(sk_q8_pack(weight, channels, Int32(o), &packed, &wscale) == 0)
            return (quads, scales, packed, wscale)
        }

        func run(_ path: Int32, rows: [Range<Int>], relu: Bool) throws -> [Float] {
            let q = try quantized()
            var out = [Float](repeating: .nan, count: o * h * w)
            let residual: [Float]? = withResidual ? self.residual : nil
            for range in rows {
                let status = sk_q8_conv_rows(path, q.quads, Int32(c + c2), sk_q8_split(Int32(c), Int32(c2)), Int32(h), Int32(w), Int32(d),
                                             q.scales, q.packed, q.wscale, bias,
                                             Int32(o), relu ? 1 : 0, residual, Int32(range.lowerBound), Int32(range.upperBound), &out)
                try #require(status == 0)
            }
            return out
        }

        /// The float32 convolution of the same (resized, concatenated) input.
        func reference(relu: Bool) -> [Float] {
            var full: [Float] = []
            if up {
                var resized = [Float](repeating: 0, count: c * h * w)
                _ = sk_resize_bilinear_halfpixel(input, Int32(c), Int32(h / 2), Int32(w / 2), Int32(h), Int32(w), &resized)
                full = resized
            } else {
                full = input
            }
            full += second
            var y = referenceConv(full, c: c + c2, h: h, w: w, weight: weight, bias: bias, o: o, kernel: 3, dilation: d, relu: relu)
            if withResidual { for i in y.indices { y[i] += residual[i] } }
            return y
        }
    }

    @Test(arguments: shapes.indices)
    func everyPathGivesTheScalarFloats(_ index: Int) throws {
        let layer = Layer(Self.shapes[index])
        for relu in [false, true] {
            let scalar = try layer.run(Int32(SK_Q8_SCALAR), rows: [0..<layer.h], relu: relu)
            #expect(!scalar.contains { $0.isNaN }, "every output written")
            let split = [0..<layer.h / 3, layer.h / 3..<layer.h]
            for path in Self.paths {
                let whole = try layer.run(path, rows: [0..<layer.h], relu: relu)
                let pieces = try layer.run(path, rows: split, relu: relu)
                #expect(whole.map(\.bitPattern) == scalar.map(\.bitPattern), "path \(path), shape \(index), relu \(relu)")
                #expect(pieces.map(\.bitPattern) == scalar.map(\.bitPattern), "path \(path) in two calls, shape \(index)")
            }
        }
    }

    @Test(arguments: shapes.indices)
    func theFloat32ConvolutionWithinQuantization(_ index: Int) throws {
        let layer = Layer(Self.shapes[index])
        let int8 = try layer.run(Int32(SK_Q8_SCALAR), rows: [0..<layer.h], relu: true)
        let float32 = layer.reference(relu: true)
        let largest = float32.map(abs).max() ?? 0
        let error = zip(int8, float32).map { abs($0 - $1) }.max() ?? 0
        // Half a step of the input and of the weights, summed over 9 C products, in the worst case
        // ~1 % of the output's range; random errors cancel to well under that.
        #expect(error <= 0.01 * max(largest, 1), "shape \(index): error \(error) of \(largest)")
    }

    @Test func quantizationRoundsAndClampsAsDocumented() throws {
        // 1 x 1 x 4 plane: negative, NaN, a value above a given scale's range, and one exactly half a step.
        let input: [Float] = [-1, .nan, 1000, 0.5]
        var quads = [UInt8](repeating: 0xFF, count: sk_q8_input_bytes(1, 1, 4, 1))
        var scale: [Float] = [1, 0]
        #expect(sk_q8_input(input, 1, 0, nil, 0, 0, 1, 4, 1, &scale, &quads) == 0)
        let row = 6 * 4  // padded width 6, row 1 of 3, column 1: quads of pixel (1, 1) onwards
        #expect([quads[row + 4], quads[row + 8], quads[row + 12], quads[row + 16]] == [0, 0, 255, 0], "0.5 rounds to even")
        #expect(quads[0] == 0 && quads[row] == 0 && quads[row + 20] == 0, "the padding is zero")
        var dynamic: [Float] = [0, 0]
        #expect(sk_q8_input([0, 2, 1, 0.5], 1, 0, nil, 0, 0, 1, 4, 1, &dynamic, &quads) == 0)
        #expect(dynamic == [Float(2) / 255, Float(2) / 255], "the largest value's bin ends at the largest value")
        var allZero: [Float] = [0, 0]
        #expect(sk_q8_input([0, 0, 0, 0], 1, 0, nil, 0, 0, 1, 4, 1, &allZero, &quads) == 0)
        #expect(allZero == [1, 1])
        // Two parts of a concatenation, 4 channels each: a scale each.
        var parts: [Float] = [0, 0]
        var twoParts = [UInt8](repeating: 0, count: sk_q8_input_bytes(8, 1, 1, 1))
        #expect(sk_q8_input([1, 0, 0, 0], 4, 0, [0, 0, 8, 0], 4, 0, 1, 1, 1, &parts, &twoParts) == 0)
        #expect(parts == [Float(1) / 255, Float(8) / 255])
        #expect(sk_q8_split(4, 4) == 4 && sk_q8_split(6, 4) == 10 && sk_q8_split(8, 0) == 8)
    }

    @Test func badArgumentsAreRefusedWithoutWriting() throws {
        var packed = [Int8](repeating: 0, count: sk_q8_packed_bytes(4, 8))
        var wscale = [Float](repeating: 0, count: 8)
        #expect(sk_q8_pack([Float](repeating: .infinity, count: 8 * 4 * 9), 4, 8, &packed, &wscale) == -1)
        #expect(sk_q8_packed_bytes(0, 8) == 0 && sk_q8_packed_bytes(9000, 8) == 0)
        #expect(sk_q8_input_bytes(4, 0, 4, 1) == 0 && sk_q8_input_bytes(4, 4, 4, 0) == 0)
        var quads = [UInt8](repeating: 0, count: sk_q8_input_bytes(4, 4, 4, 1))
        var scale: [Float] = [0, 0]
        #expect(sk_q8_input([Float](repeating: 1, count: 4 * 4), 4, 1, nil, 0, 0, 4, 4, 1, &scale, &quads) == 0)
        var odd: [Float] = [0, 0]
        #expect(sk_q8_input([Float](repeating: 1, count: 4 * 9), 4, 1, nil, 0, 0, 5, 5, 1, &odd, &quads) == -1, "2x input of odd size")
        var out = [Float](repeating: 7, count: 8 * 16)
        #expect(sk_q8_pack([Float](repeating: 0.1, count: 8 * 4 * 9), 4, 8, &packed, &wscale) == 0)
        #expect(sk_q8_conv_rows(0, quads, 4, 4, 4, 4, 1, [0, 1], packed, wscale, nil, 8, 0, nil, 0, 4, &out) == -1, "scale 0")
        #expect(sk_q8_conv_rows(0, quads, 4, 4, 4, 4, 1, [1, 1], packed, wscale, nil, 8, 0, nil, 2, 5, &out) == -1, "rows past the plane")
        #expect(sk_q8_conv_rows(99, quads, 4, 4, 4, 4, 1, [1, 1], packed, wscale, nil, 8, 0, nil, 0, 4, &out) == -1, "no such path")
        #expect(sk_q8_conv_rows(0, quads, 4, 2, 4, 4, 1, [1, 1], packed, wscale, nil, 8, 0, nil, 0, 4, &out) == -1, "split off a quad")
        #expect(out.allSatisfy { $0 == 7 })
    }
}
