import CResampleRows

/// Resampling with alpha handled correctly: colours are weighted by their alpha (premultiplied),
/// averaged, then divided back, so the colour of transparent pixels never bleeds into visible ones.
/// Shrinking averages the covered area (a box filter over exact pixel coverage); enlarging is
/// bilinear. The two axes are resampled separately, each with its own filter, in Float (C,
/// CResampleRows): the horizontal pass (`resample_row_premultiplied`, in C: the widening to RGBA and the
/// conversion to premultiplied Float four pixels a step, then the column filter) takes the rows
/// as 8-bit grey, grey + alpha, RGB or RGBA, so a PNG's rows are never widened on their own; the
/// vertical pass and the way back to straight bytes are C too (`resample_column_unpremultiplied`).
public enum ImageResizer {
    /// The image resampled to `width` x `height` (each at least 1).
    public static func resized(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        let width = max(1, width)
        let height = max(1, height)
        if width == image.width && height == image.height { return image }
        return image.pixels.withUnsafeBufferPointer { source in
            guard let input = source.baseAddress else { return image }
            let rowBytes = image.width * 4
            return resized(sourceWidth: image.width, sourceHeight: image.height, channels: 4, width: width, height: height) { y in
                input + y * rowBytes
            }
        }
    }

    /// An image of `sourceWidth` x `sourceHeight` straight pixels of `channels` 8-bit samples
    /// (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA), handed over a row at a time, resampled to
    /// `width` x `height` (each at least 1): what `resized(_:width:height:)` does with the rows
    /// widened to RGBA, for a decoder that makes rows one by one (a large PNG reduced as it
    /// decodes, never whole or widened). `row(y)` is asked for rows in increasing order, each at
    /// most once; its pointer (`sourceWidth * channels` bytes) need only stay valid until the next call.
    static func resized(
        sourceWidth: Int, sourceHeight: Int, channels: Int, width: Int, height: Int,
        row sourceRow: (Int) -> UnsafePointer<UInt8>
    ) -> RGBAImage {
        precondition((1...4).contains(channels), "ImageResizer: \(channels) channels")
        let width = max(1, width)
        let height = max(1, height)
        let columns = Filter(source: sourceWidth, destination: width)
        let rows = Filter(source: sourceHeight, destination: height)
        // Horizontally resampled rows are kept in a ring just deep enough for the vertical
        // filter (row starts only move forward), so the working set stays in cache.
        let depth = rows.counts.max() ?? 1
        let count = width * height * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            let converted = UnsafeMutablePointer<Float>.allocate(capacity: sourceWidth * 4)
            // Premultiplied float RGBA rows, 4 floats a pixel.
            let ring = UnsafeMutablePointer<Float>.allocate(capacity: depth * width * 4)
            ring.initialize(repeating: 0, count: depth * width * 4)
            // The rows of the ring the vertical filter reads for one output row.
            let tapRows = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: depth)
            defer {
                converted.deallocate()
                ring.deallocate()
                tapRows.deallocate()
            }
            do {
                guard let output = buffer.baseAddress else { return }
                columns.withTables { columnStarts, columnCounts, columnOffsets, columnWeights in
                    /// Resamples source row `y` into its ring slot, as premultiplied Floats.
                    func resampleRow(_ y: Int) {
                        resample_row_premultiplied(
                            sourceRow(y), UInt32(channels), sourceWidth, converted, width,
                            columnStarts, columnCounts, columnOffsets, columnWeights, ring + (y % depth) * width * 4)
                    }
                    rows.withTables { starts, counts, weightOffsets, weights in
                        var nextRow = 0
                        for y in 0..<height {
                            let first = starts[y]
                            let taps = counts[y]
                            nextRow = max(nextRow, first)
                            while nextRow < first + taps {
                                resampleRow(nextRow)
                                nextRow += 1
                            }
                            for tap in 0..<taps { tapRows[tap] = UnsafePointer(ring + ((first + tap) % depth) * width * 4) }
                            resample_column_unpremultiplied(tapRows, taps, weights + weightOffsets[y], width, output + y * width * 4)
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
