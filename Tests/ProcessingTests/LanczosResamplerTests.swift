import CResampleRows
import Testing
@testable import Processing

/// The network's input resize must be Pillow's `resize(size, Image.LANCZOS)` byte for byte (what
/// rembg feeds u2netp). Expected values from Pillow 12.3 on the same pattern.
@Suite(.timeLimit(.minutes(15))) struct LanczosResamplerTests {
    static func pattern(width: Int, height: Int) -> RGBAImage {
        var pixels = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 { pixels.append(UInt8((x * 37 + y * 91 + channel * 53 + (x * y) % 17 * 11) % 256)) }
                pixels.append(255)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func rgb(_ image: RGBAImage) -> [Int] {
        image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map { Int($0.element) }
    }

    @Test func shrinkMatchesPillow() {
        let out = LanczosResampler.resized(Self.pattern(width: 13, height: 7), width: 5, height: 3)
        #expect(Self.rgb(out) == [
            107, 130, 146, 136, 139, 145, 127, 123, 119, 76, 101, 151, 127, 187, 114, 125, 146, 113, 129, 122, 109,
            143, 118, 131, 105, 88, 148, 127, 130, 138, 120, 148, 141, 134, 120, 125, 113, 96, 125, 163, 96, 152, 148, 112, 148,
        ])
        #expect(out.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test func largerShrinkMatchesPillow() {
        let values = Self.rgb(LanczosResampler.resized(Self.pattern(width: 50, height: 31), width: 16, height: 16))
        #expect(values.reduce(0, +) == 98376)
        #expect(Array(values.prefix(12)) == [102, 133, 155, 141, 146, 141, 95, 98, 122, 117, 159, 124])
        #expect(values.enumerated().reduce(0) { ($0 + $1.offset * $1.element) % 1_000_003 } == 719_072)
    }

    @Test func enlargeMatchesPillow() {
        let values = Self.rgb(LanczosResampler.resized(Self.pattern(width: 6, height: 4), width: 9, height: 7))
        #expect(Array(values.prefix(27)) == [0, 45, 89, 7, 56, 100, 36, 78, 139, 53, 101, 190, 69, 147, 216, 102, 192, 251, 154, 214, 255, 193, 236, 128, 204, 248, 0])
        #expect(Array(values.suffix(9)) == [47, 45, 149, 37, 148, 215, 106, 192, 240])
    }

    /// Pillow's `ImagingResampleHorizontal_8bpc` then `ImagingResampleVertical_8bpc`, written
    /// out plainly: whole intermediate image, one Int sum a sample from half, clip8 at the end.
    static func reference(_ image: RGBAImage, width: Int, height: Int) -> [UInt8] {
        let columns = LanczosResampler.Coefficients(source: image.width, destination: width)
        let rows = LanczosResampler.Coefficients(source: image.height, destination: height)
        let half = 1 << (LanczosResampler.precisionBits - 1)
        func clip8(_ sum: Int) -> UInt8 { UInt8(clamping: sum >> LanczosResampler.precisionBits) }
        var across = [UInt8](repeating: 0, count: width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<width {
                for channel in 0..<4 {
                    var sum = half
                    for tap in 0..<columns.counts[x] {
                        let pixel = Int(image.pixels[(y * image.width + columns.starts[x] + tap) * 4 + channel])
                        sum += pixel * Int(columns.weights[x * columns.size + tap])
                    }
                    across[(y * width + x) * 4 + channel] = clip8(sum)
                }
            }
        }
        var result = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    var sum = half
                    for tap in 0..<rows.counts[y] {
                        sum += Int(across[((rows.starts[y] + tap) * width + x) * 4 + channel]) * Int(rows.weights[y * rows.size + tap])
                    }
                    result[(y * width + x) * 4 + channel] = clip8(sum)
                }
            }
        }
        return result
    }

    /// Random bytes, or only 0 and 255 (the Lanczos lobes then overshoot both ends, so clip8
    /// clamps), with random alpha (which the resize must ignore).
    static func randomImage(width: Int, height: Int, extremes: Bool, random: inout MaskCleanupTests.Random) -> RGBAImage {
        let pixels = (0..<width * height * 4).map { _ in extremes ? UInt8(random.next(2) * 255) : UInt8(random.next(256)) }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// (source width, height, target width, height): 1-pixel rows and columns, odd widths, widths
    /// whose last pixels fall off the vector steps, enlarging, shrinking up to ~10x, mixed axes,
    /// and the network's 320 x 320 from a photo's shape.
    static let shapes = [
        (1, 1, 3, 2), (1, 9, 1, 4), (9, 1, 4, 1), (7, 5, 1, 1), (13, 7, 5, 3), (6, 4, 9, 7), (3, 3, 17, 11),
        (50, 31, 16, 16), (101, 33, 11, 7), (97, 61, 320, 7), (255, 3, 33, 1), (1, 200, 5, 21), (333, 257, 35, 29),
        (640, 360, 64, 36), (33, 999, 5, 97), (47, 47, 13, 131), (400, 225, 320, 320), (1021, 37, 103, 5), (17, 260, 63, 26),
    ]

    @Test func everyPathMatchesPillowsIntegerSums() {
        var random = MaskCleanupTests.Random(state: 15)
        let paths = ConvolutionKernels.allCases.filter { lanczos_kernels_supported($0.rawValue) != 0 }
        #expect(paths.contains(.scalar))
        for (index, (sourceWidth, sourceHeight, width, height)) in Self.shapes.enumerated() {
            let image = Self.randomImage(width: sourceWidth, height: sourceHeight, extremes: index % 2 == 1, random: &random)
            let expected = Self.reference(image, width: width, height: height)
            for kernels in paths {
                let out = LanczosResampler.resized(image, width: width, height: height, kernels: kernels)
                #expect(out.width == width && out.height == height)
                #expect(out.pixels == expected, "\(kernels), \(sourceWidth)x\(sourceHeight) to \(width)x\(height)")
            }
        }
    }

    /// Each vector path's passes against the portable path's, alone: the horizontal pass on rows
    /// whose every tap count leaves a different remainder, the vertical pass on row lengths that
    /// end in every kind of tail, with the fourth byte filtered too (the vertical pass sets it).
    @Test func vectorPassesMatchThePortablePasses() {
        var random = MaskCleanupTests.Random(state: 7)
        let vectorPaths = ConvolutionKernels.allCases.filter { $0 != .scalar && lanczos_kernels_supported($0.rawValue) != 0 }
        for (sourceWidth, width) in [(1, 1), (2, 7), (9, 2), (37, 5), (100, 13), (513, 50), (70, 61), (2560, 320), (5, 83)] {
            let columns = LanczosResampler.Coefficients(source: sourceWidth, destination: width)
            let starts = columns.starts.map { Int32($0) }, counts = columns.counts.map { Int32($0) }
            let row = (0..<sourceWidth * 4).map { _ in UInt8(random.next(2) * 255) }
            func across(_ kernels: Int32) -> [UInt8] {
                var target = [UInt8](repeating: 1, count: width * 4)
                #expect(lanczos_resample_across(kernels, row, width, starts, counts, columns.weights, columns.size, &target) == kernels)
                return target
            }
            let portable = across(ConvolutionKernels.scalar.rawValue)
            for kernels in vectorPaths { #expect(across(kernels.rawValue) == portable, "\(kernels), \(sourceWidth) to \(width)") }
        }
        for (sourceHeight, height, width) in [(1, 1, 1), (9, 2, 3), (40, 4, 7), (30, 7, 8), (11, 17, 17), (1440, 1, 320), (50, 5, 65)] {
            let coefficients = LanczosResampler.Coefficients(source: sourceHeight, destination: height)
            let stride = width * 4
            let rows = (0..<sourceHeight * stride).map { _ in UInt8(random.next(256)) }
            for y in 0..<height {
                let taps = coefficients.counts[y], first = coefficients.starts[y]
                let weights = Array(coefficients.weights[(y * coefficients.size)...].prefix(taps))
                func down(_ kernels: Int32) -> [UInt8] {
                    var target = [UInt8](repeating: 1, count: stride)
                    rows.withUnsafeBufferPointer { rows in
                        let pointers = (first..<first + taps).map { Optional(rows.baseAddress! + $0 * stride) }
                        #expect(lanczos_resample_down(kernels, pointers, taps, weights, width, &target) == kernels)
                    }
                    return target
                }
                let portable = down(ConvolutionKernels.scalar.rawValue)
                #expect(portable.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
                for kernels in vectorPaths { #expect(down(kernels.rawValue) == portable, "\(kernels), row \(y) of \(sourceHeight) to \(height)") }
            }
        }
        // A path that does not exist runs the widest there is below it.
        let widest = ConvolutionKernels.allCases.last { lanczos_kernels_supported($0.rawValue) != 0 }!
        var target = [UInt8](repeating: 0, count: 4)
        #expect(lanczos_resample_across(9, [1, 2, 3, 4], 1, [0], [1], [1 << 22], 1, &target) == widest.rawValue)
        #expect(target == [1, 2, 3, 4])
    }

    /// The int32 sums cannot overflow: for Pillow's weights, 255 times the sum of |weight| plus the
    /// half stays below 2^31 (the bound Pillow relies on too), over shrinking up to 40x and enlarging.
    @Test func sumsFitInt32() {
        var largest = 0
        for source in [1, 2, 3, 5, 7, 10, 31, 64, 100, 320, 999, 1440, 2560, 5120] {
            for destination in [1, 2, 3, 7, 16, 64, 100, 320, 1000] where source <= 40 * destination {
                let coefficients = LanczosResampler.Coefficients(source: source, destination: destination)
                for x in 0..<destination {
                    let weights = coefficients.weights[(x * coefficients.size)...].prefix(coefficients.counts[x])
                    largest = max(largest, weights.reduce(0) { $0 + abs(Int($1)) })
                }
            }
        }
        #expect(255 * largest + (1 << 21) < 1 << 31)
    }
}
