import CSegmentationKernels

/// Removes the old background's colour from a cut-out's soft edges, so a subject lifted off a
/// green lawn has no green halo on white paper. Blur-Fusion foreground estimation (Forte & Pitié,
/// "Approximate Fast Foreground Colour Estimation", ICIP 2021), run twice: a wide pass, then a
/// narrow one. Pixels with alpha 0 or 1 keep their colour.
///
/// Each pass needs seven box means (alpha, and per channel the alpha-weighted foreground and the
/// (1 − alpha)-weighted background). They run as one streamed `BoxFilter.means` call of seven
/// planes: the products are formed as rows go in and the estimates updated as rows come out, so
/// no temporary plane is made. Each plane gets the same operations as filtered alone, and the
/// per-pixel estimates (vectorised, in C) the same operations as the scalar Swift expressions,
/// so the colours are the same, bit for bit, as seven separate means and a scalar loop.
///
/// Only the edge colours (0 < alpha < 1) are kept in the end, so the last pass works out the
/// foreground alone, and only from each row's first edge pixel to its last; the first pass must
/// update every pixel the last one's running sums read (every row down to its window's reach
/// below the last edge row), since a sum's rounding depends on all it has added and subtracted.
public enum EdgeDecontamination {
    /// The image's colours re-estimated where `alpha` (0...1, one value a pixel) is soft.
    public static func decontaminated(_ image: RGBAImage, alpha: [Float]) -> RGBAImage {
        let width = image.width, height = image.height
        let count = width * height
        precondition(alpha.count == count, "EdgeDecontamination: alpha and image sizes differ")
        // Per row, the columns from its first edge pixel to its last: all the last pass works out.
        let edgeSpans = alpha.withUnsafeBufferPointer { alpha in
            (0..<height).map { y -> Range<Int> in
                let row = alpha.baseAddress! + y * width
                guard let first = (0..<width).first(where: { row[$0] > 0 && row[$0] < 1 }) else { return 0..<0 }
                return first..<((first..<width).last { row[$0] > 0 && row[$0] < 1 }! + 1)
            }
        }
        guard let lastEdgeRow = edgeSpans.lastIndex(where: { !$0.isEmpty }) else { return image }
        let radii = [max(2, min(width, height) / 12), max(1, min(width, height) / 170)]
        // The last pass reads the first one's estimates down to its window's reach below the last
        // edge row; every row above (the running sums read them all).
        let firstPassRows = (0..<height).map { $0 <= lastEdgeRow + radii[1] ? 0..<width : 0..<0 }
        // Planes, one after another: foreground R, G, B; background R, G, B. The observed colours
        // are read from the pixels a row at a time, as the first pass's estimates and as `seen`.
        let planes = UnsafeMutablePointer<Float>.allocate(capacity: 6 * count)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 9 * width)
        defer {
            planes.deallocate()
            scratch.deallocate()
        }
        let foreground = planes, background = planes + 3 * count
        // Rows of the observed colours (three channels each) for `fill` and for `emit`, and the
        // last pass's foreground.
        let observedIn = scratch, observedOut = scratch + 3 * width, finished = scratch + 6 * width
        var pixels = image.pixels
        image.pixels.withUnsafeBufferPointer { source in
            alpha.withUnsafeBufferPointer { alpha in
                pixels.withUnsafeMutableBufferPointer { pixels in
                    let source = source.baseAddress!, alpha = alpha.baseAddress!, pixels = pixels.baseAddress!
                    for (pass, radius) in radii.enumerated() {
                        let last = pass == radii.count - 1
                        // Planes: alpha, the alpha-weighted foregrounds, the (1 − alpha)-weighted backgrounds.
                        // A row's estimates are updated as its means come out; the rows still to be read
                        // in are below it, so not yet updated.
                        BoxFilter.means(planes: 7, width: width, height: height, radius: radius, wanted: last ? edgeSpans : firstPassRows) { y, rows in
                            let offset = y * width, a = alpha + offset
                            if pass == 0 {
                                // Before the first pass both estimates are the observed colours.
                                sk_rgb_unit_planes(source + 4 * offset, Int32(width), observedIn)
                                sk_edge_weighted_rows(Int32(width), a, observedIn, width, observedIn, width, rows)
                            } else {
                                sk_edge_weighted_rows(Int32(width), a, foreground + offset, count, background + offset, count, rows)
                            }
                        } emit: { y, means in
                            // The columns worked out: the whole row, or on the last pass its edge pixels' span.
                            let offset = y * width, columns = last ? edgeSpans[y] : 0..<width, start = columns.lowerBound
                            let span = columns.count, at = offset + start
                            sk_rgb_unit_planes(source + 4 * at, Int32(span), observedOut)
                            for channel in 0..<3 {
                                estimate(
                                    width: span, alpha: alpha + at, blurredAlpha: means + start,
                                    weightedForeground: means + (channel + 1) * width + start, weightedBackground: means + (channel + 4) * width + start,
                                    seen: observedOut + channel * span,
                                    foreground: last ? finished + channel * width + start : foreground + channel * count + at,
                                    background: last ? nil : background + channel * count + at)
                            }
                            guard last else { return }
                            for x in columns where alpha[offset + x] > 0 && alpha[offset + x] < 1 {
                                for channel in 0..<3 {
                                    pixels[(offset + x) * 4 + channel] = UInt8((finished[channel * width + x] * 255).rounded())
                                }
                            }
                        }
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// One channel of one row: the foreground (and, unless nil, background) estimates from the
    /// box means. Per pixel, exactly the scalar operations
    /// `F̂ = blurredAlpha > 1e-5 ? weightedF / blurredAlpha : seen` (likewise B̂ with 1 − blurred
    /// alpha), `r = seen − a F̂ − (1 − a) B̂`, `F = min(1, max(0, F̂ + a r))`, `B = min(1, max(0, B̂ + (1 − a) r))`,
    /// run by `sk_edge_estimates` (C, where the selects vectorise).
    @inline(__always)
    private static func estimate(
        width: Int, alpha: UnsafePointer<Float>, blurredAlpha: UnsafePointer<Float>,
        weightedForeground: UnsafePointer<Float>, weightedBackground: UnsafePointer<Float>, seen: UnsafePointer<Float>,
        foreground: UnsafeMutablePointer<Float>, background: UnsafeMutablePointer<Float>?
    ) {
        sk_edge_estimates(Int32(width), alpha, blurredAlpha, weightedForeground, weightedBackground, seen, foreground, background)
    }
}
