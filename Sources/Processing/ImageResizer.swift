/// Resampling with alpha handled correctly: colours are weighted by their alpha (premultiplied),
/// averaged, then divided back, so the colour of transparent pixels never bleeds into visible ones.
/// Shrinking averages the covered area (a box filter over exact pixel coverage); enlarging is
/// bilinear. The two axes are resampled separately, each with its own filter.
public enum ImageResizer {
    /// The image resampled to `width` x `height` (each at least 1).
    public static func resized(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        let width = max(1, width)
        let height = max(1, height)
        if width == image.width && height == image.height { return image }
        let columns = Filter(source: image.width, destination: width)
        let rows = Filter(source: image.height, destination: height)

        // Pass 1, horizontal: premultiplied Float sums, width x source height.
        let intermediateCount = width * image.height * 4
        let intermediate = [Float](unsafeUninitializedCapacity: intermediateCount) { buffer, initializedCount in
            image.pixels.withUnsafeBufferPointer { source in
                guard let input = source.baseAddress, let output = buffer.baseAddress else { return }
                columns.withTables { starts, counts, weightOffsets, weights in
                    for y in 0..<image.height {
                        let sourceRow = input + y * image.width * 4
                        var target = output + y * width * 4
                        for x in 0..<width {
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            var pixel = sourceRow + starts[x] * 4
                            var weight = weights + weightOffsets[x]
                            for _ in 0..<counts[x] {
                                let alphaWeight = weight.pointee * Float(pixel[3])
                                r += alphaWeight * Float(pixel[0])
                                g += alphaWeight * Float(pixel[1])
                                b += alphaWeight * Float(pixel[2])
                                a += alphaWeight
                                pixel += 4
                                weight += 1
                            }
                            target[0] = r
                            target[1] = g
                            target[2] = b
                            target[3] = a
                            target += 4
                        }
                    }
                }
            }
            initializedCount = intermediateCount
        }

        // Pass 2, vertical: sum rows of the intermediate, then divide the colour by the alpha.
        let rowLength = width * 4
        let count = rowLength * height
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            var accumulator = [Float](repeating: 0, count: rowLength)
            intermediate.withUnsafeBufferPointer { source in
                accumulator.withUnsafeMutableBufferPointer { sums in
                    guard let input = source.baseAddress, let output = buffer.baseAddress, let sum = sums.baseAddress else { return }
                    rows.withTables { starts, counts, weightOffsets, weights in
                        for y in 0..<height {
                            sum.update(repeating: 0, count: rowLength)
                            for tap in 0..<counts[y] {
                                let weight = weights[weightOffsets[y] + tap]
                                let row = input + (starts[y] + tap) * rowLength
                                for index in 0..<rowLength { sum[index] += weight * row[index] }
                            }
                            let target = output + y * rowLength
                            var offset = 0
                            while offset < rowLength {
                                let alpha = sum[offset + 3]
                                if alpha >= 0.5 {  // Below that the pixel rounds to fully transparent.
                                    let scale = 1 / alpha
                                    target[offset] = clampedByte(sum[offset] * scale)
                                    target[offset + 1] = clampedByte(sum[offset + 1] * scale)
                                    target[offset + 2] = clampedByte(sum[offset + 2] * scale)
                                    target[offset + 3] = clampedByte(alpha)
                                } else {
                                    target[offset] = 0
                                    target[offset + 1] = 0
                                    target[offset + 2] = 0
                                    target[offset + 3] = 0
                                }
                                offset += 4
                            }
                        }
                    }
                }
            }
            initializedCount = count
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The image scaled so its long side is `longSide` (at least 1), keeping the aspect ratio;
    /// the short side is rounded and at least 1.
    public static func fitted(_ image: RGBAImage, longSide: Int) -> RGBAImage {
        let longSide = max(1, longSide)
        let (width, height): (Int, Int)
        if image.width >= image.height {
            width = longSide
            height = max(1, Int((Double(image.height) * Double(longSide) / Double(image.width)).rounded()))
        } else {
            height = longSide
            width = max(1, Int((Double(image.width) * Double(longSide) / Double(image.height)).rounded()))
        }
        return resized(image, width: width, height: height)
    }

    @inline(__always)
    private static func clampedByte(_ value: Float) -> UInt8 {
        UInt8(min(max(value + 0.5, 0), 255))
    }

    /// For one axis: which source pixels each destination pixel reads, and with what weights
    /// (summing to 1).
    private struct Filter {
        var starts: [Int] = []
        var counts: [Int] = []
        var weightOffsets: [Int] = []
        var weights: [Float] = []

        init(source: Int, destination: Int) {
            starts.reserveCapacity(destination)
            counts.reserveCapacity(destination)
            weightOffsets.reserveCapacity(destination)
            let scale = Double(source) / Double(destination)
            for index in 0..<destination {
                weightOffsets.append(weights.count)
                if scale > 1 {
                    // Area average: each source pixel weighs by how much of it the destination pixel covers.
                    let low = Double(index) * scale
                    let high = min(Double(index + 1) * scale, Double(source))
                    let first = min(Int(low), source - 1)
                    let last = max(first, min(Int(high.rounded(.up)) - 1, source - 1))
                    var taps: [Double] = []
                    for pixel in first...last {
                        taps.append(max(0, min(high, Double(pixel + 1)) - max(low, Double(pixel))))
                    }
                    let total = taps.reduce(0, +)
                    starts.append(first)
                    counts.append(taps.count)
                    weights += taps.map { Float(total > 0 ? $0 / total : 1 / Double(taps.count)) }
                } else {
                    // Bilinear between the two nearest source pixel centres, clamped at the edges.
                    let centre = (Double(index) + 0.5) * scale - 0.5
                    var first = Int(centre.rounded(.down))
                    var fraction = centre - Double(first)
                    if first < 0 {
                        first = 0
                        fraction = 0
                    }
                    if first >= source - 1 {
                        first = source - 1
                        fraction = 0
                    }
                    starts.append(first)
                    if fraction > 0 {
                        counts.append(2)
                        weights += [Float(1 - fraction), Float(fraction)]
                    } else {
                        counts.append(1)
                        weights.append(1)
                    }
                }
            }
        }

        func withTables<R>(
            _ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>) -> R
        ) -> R? {
            starts.withUnsafeBufferPointer { starts in
                counts.withUnsafeBufferPointer { counts in
                    weightOffsets.withUnsafeBufferPointer { offsets in
                        weights.withUnsafeBufferPointer { weights in
                            guard let s = starts.baseAddress, let c = counts.baseAddress,
                                  let o = offsets.baseAddress, let w = weights.baseAddress else { return nil }
                            return body(s, c, o, w)
                        }
                    }
                }
            }
        }
    }
}
