import Foundation

/// The network's input resize, done as rembg does it: Pillow's `Image.resize(size, Image.LANCZOS)`
/// on 8-bit RGB, reproduced to the byte (Pillow 7+ `Resample.c`: Lanczos-3 widened by the
/// shrink factor, weights normalised then rounded to 22-bit fixed point, the horizontal pass
/// first into 8-bit rows, then the vertical pass). With the same input bytes the network sees
/// exactly what rembg's u2netp sees, so its mask differs from the peer's only after the network.
enum LanczosResampler {
    private static let precisionBits = 22

    /// `image`'s RGB (alpha ignored, set to 255) resized to `width` x `height`.
    ///
    /// Pillow sums in integers; here the sums are Doubles, which are exact for these integers
    /// (a byte times a 22-bit weight, a few dozen of them, stays far below 2^53), so every byte
    /// comes out the same while a pixel's channels are summed as one SIMD value and the order
    /// of the additions is free (several partial sums, no waiting on one chain).
    static func resized(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        if width == image.width && height == image.height { return image }
        let columns = Coefficients(source: image.width, destination: width)
        let rows = Coefficients(source: image.height, destination: height)
        // Rows of the horizontal pass (Pillow's 8-bit intermediate, packed RGB held as Doubles),
        // made when the vertical pass first needs them and kept in a ring as deep as its longest filter.
        let stride = width * 3
        let depth = max(1, rows.counts.max() ?? 1)
        let ring = UnsafeMutablePointer<Double>.allocate(capacity: depth * stride)
        let sourceRow = UnsafeMutablePointer<SIMD4<Double>>.allocate(capacity: image.width)
        let sums = UnsafeMutablePointer<Double>.allocate(capacity: stride)
        defer {
            ring.deallocate()
            sourceRow.deallocate()
            sums.deallocate()
        }
        let half = Double(1 << (precisionBits - 1))
        let columnWeights = columns.weights.map(Double.init)
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, initialized in
            image.pixels.withUnsafeBufferPointer { source in
                columnWeights.withUnsafeBufferPointer { columnWeights in
                    var nextRow = 0
                    for y in 0..<height {
                        let first = rows.starts[y], taps = rows.counts[y]
                        nextRow = max(nextRow, first)
                        while nextRow < first + taps {
                            resampleAcross(source.baseAddress! + nextRow * image.width * 4, width: image.width, through: sourceRow,
                                           columns: columns, weights: columnWeights.baseAddress!,
                                           into: ring + (nextRow % depth) * stride)
                            nextRow += 1
                        }
                        sums.initialize(repeating: half, count: stride)
                        for tap in 0..<taps {
                            let weight = Double(rows.weights[y * rows.size + tap])
                            let row = ring + ((first + tap) % depth) * stride
                            for index in 0..<stride { sums[index] += row[index] * weight }
                        }
                        let target = output.baseAddress! + y * width * 4
                        for x in 0..<width {
                            target[4 * x] = clip(sums[3 * x])
                            target[4 * x + 1] = clip(sums[3 * x + 1])
                            target[4 * x + 2] = clip(sums[3 * x + 2])
                            target[4 * x + 3] = 255
                        }
                    }
                }
            }
            initialized = width * height * 4
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The horizontal pass over one source row (`width` pixels, converted to Doubles once in
    /// `pixels`): RGB clipped to bytes as Pillow's intermediate has them.
    private static func resampleAcross(
        _ source: UnsafePointer<UInt8>, width: Int, through pixels: UnsafeMutablePointer<SIMD4<Double>>,
        columns: Coefficients, weights: UnsafePointer<Double>, into target: UnsafeMutablePointer<Double>
    ) {
        pixels.withMemoryRebound(to: Double.self, capacity: width * 4) { doubles in
            for index in 0..<width * 4 { doubles[index] = Double(source[index]) }
        }
        let half = SIMD4<Double>(repeating: Double(1 << (precisionBits - 1)))
        for x in 0..<columns.starts.count {
            let taps = columns.counts[x], pixel = pixels + columns.starts[x], weight = weights + x * columns.size
            // Four partial sums: exact, so their order does not matter.
            var sum0 = half, sum1 = SIMD4<Double>(), sum2 = SIMD4<Double>(), sum3 = SIMD4<Double>()
            var tap = 0
            while tap + 4 <= taps {
                sum0 += pixel[tap] * weight[tap]
                sum1 += pixel[tap + 1] * weight[tap + 1]
                sum2 += pixel[tap + 2] * weight[tap + 2]
                sum3 += pixel[tap + 3] * weight[tap + 3]
                tap += 4
            }
            while tap < taps {
                sum0 += pixel[tap] * weight[tap]
                tap += 1
            }
            let sum = (sum0 + sum1) + (sum2 + sum3)
            target[3 * x] = Double(clip(sum[0]))
            target[3 * x + 1] = Double(clip(sum[1]))
            target[3 * x + 2] = Double(clip(sum[2]))
        }
    }

    /// Pillow's `clip8` on an exact integer sum held in a Double.
    @inline(__always)
    private static func clip(_ sum: Double) -> UInt8 {
        clip(Int(sum))
    }

    /// Pillow's `clip8`: the fixed-point sum's integer part (floor), clamped to a byte.
    @inline(__always)
    private static func clip(_ sum: Int) -> UInt8 {
        UInt8(clamping: sum >> precisionBits)
    }

    /// Pillow's `lanczos_filter`: sinc(x) sinc(x / 3) on [-3, 3).
    static func lanczos(_ x: Double) -> Double {
        guard -3 <= x && x < 3 else { return 0 }
        func sinc(_ x: Double) -> Double { x == 0 ? 1 : sin(x * .pi) / (x * .pi) }
        return sinc(x) * sinc(x / 3)
    }

    /// Pillow's `precompute_coeffs` + `normalize_coeffs_8bpc` for one axis: for each output
    /// position the first source index, the tap count and `size` fixed-point weights.
    struct Coefficients {
        var starts: [Int] = []
        var counts: [Int] = []
        var weights: [Int] = []
        var size = 0

        init(source: Int, destination: Int) {
            let scale = Double(source) / Double(destination)
            let filterScale = max(1, scale)
            let support = 3 * filterScale
            size = Int(support.rounded(.up)) * 2 + 1
            weights = [Int](repeating: 0, count: destination * size)
            for index in 0..<destination {
                let centre = (Double(index) + 0.5) * scale
                let first = max(0, Int(centre - support + 0.5))
                let count = min(source, Int(centre + support + 0.5)) - first
                let reciprocal = 1 / filterScale
                var taps = (0..<max(0, count)).map { lanczos((Double($0 + first) - centre + 0.5) * reciprocal) }
                let total = taps.reduce(0, +)
                if total != 0 { taps = taps.map { $0 / total } }
                for (tap, weight) in taps.enumerated() {
                    let fixed = weight * Double(1 << LanczosResampler.precisionBits)
                    weights[index * size + tap] = Int(fixed < 0 ? fixed - 0.5 : fixed + 0.5)
                }
                starts.append(first)
                counts.append(max(0, count))
            }
        }
    }
}
