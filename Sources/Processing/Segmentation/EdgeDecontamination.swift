import CSegmentationKernels

/// Removes the old background's colour from a cut-out's soft edges, so a subject lifted off a
/// green lawn has no green halo on white paper. Blur-Fusion foreground estimation (Forte & Pitié,
/// "Approximate Fast Foreground Colour Estimation", ICIP 2021), run twice: a wide pass, then a
/// narrow one. Pixels with alpha 0 or 1 keep their colour.
///
/// Each pass needs seven box means (alpha, and per channel the alpha-weighted foreground and the
/// (1 − alpha)-weighted background). They run as one streamed box filter of seven planes a pass:
/// the products are formed as rows go in and the estimates worked out as rows come out, each
/// first-pass row pushed straight into the last pass (`BoxFilter.Stream`), so no plane is made. Each plane gets the same operations as filtered alone, and the
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
        guard edgeSpans.contains(where: { !$0.isEmpty }) else { return image }
        let radii = (first: max(2, min(width, height) / 12), last: max(1, min(width, height) / 170))
        // The last pass takes each row of the first one's estimates as it comes out, so they are
        // never kept as planes. It reads them down to its window's reach below the last edge row,
        // and every row above (its running sums read them all), so the first pass works out those.
        let lastPass = BoxFilter.Stream(planes: 7, width: width, height: height, radius: radii.last, wanted: edgeSpans)
        let firstPassRows = (0..<height).map { $0 < lastPass.rowsNeeded ? 0..<width : 0..<0 }
        // Rows of: the observed colours (three channels each) for `fill` and for `emit`; the first
        // pass's foreground and background; the last pass's foreground.
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 15 * width)
        defer { scratch.deallocate() }
        let observedIn = scratch, observedOut = scratch + 3 * width
        let foreground = scratch + 6 * width, background = scratch + 9 * width, finished = scratch + 12 * width
        var pixels = image.pixels
        image.pixels.withUnsafeBufferPointer { source in
            alpha.withUnsafeBufferPointer { alpha in
                pixels.withUnsafeMutableBufferPointer { pixels in
                    let source = source.baseAddress!, alpha = alpha.baseAddress!, pixels = pixels.baseAddress!
                    /// The estimates of row `y`'s columns `columns` from its box means: foreground and
                    /// background into `foreground` and `background`, or (with `background` nil) the
                    /// foreground alone into `finished`.
                    func estimates(_ y: Int, _ columns: Range<Int>, _ means: UnsafePointer<Float>, background: UnsafeMutablePointer<Float>?) {
                        let start = columns.lowerBound, span = columns.count, at = y * width + start
                        sk_rgb_unit_planes(source + 4 * at, Int32(span), observedOut)
                        for channel in 0..<3 {
                            estimate(
                                width: span, alpha: alpha + at, blurredAlpha: means + start,
                                weightedForeground: means + (channel + 1) * width + start, weightedBackground: means + (channel + 4) * width + start,
                                seen: observedOut + channel * span,
                                foreground: (background == nil ? finished : foreground) + channel * width + start,
                                background: background.map { $0 + channel * width + start })
                        }
                    }
                    /// The last pass's means of row `y` out: its edge pixels' new colours.
                    func finish(_ y: Int, _ means: UnsafePointer<Float>) {
                        let offset = y * width
                        estimates(y, edgeSpans[y], means, background: nil)
                        for x in edgeSpans[y] where alpha[offset + x] > 0 && alpha[offset + x] < 1 {
                            for channel in 0..<3 {
                                pixels[(offset + x) * 4 + channel] = UInt8((finished[channel * width + x] * 255).rounded())
                            }
                        }
                    }
                    // Planes: alpha, the alpha-weighted foregrounds, the (1 − alpha)-weighted backgrounds.
                    // Before the first pass both estimates are the observed colours.
                    BoxFilter.means(planes: 7, width: width, height: height, radius: radii.first, wanted: firstPassRows) { y, rows in
                        sk_rgb_unit_planes(source + 4 * y * width, Int32(width), observedIn)
                        sk_edge_weighted_rows(Int32(width), alpha + y * width, observedIn, width, observedIn, width, rows)
                    } emit: { y, means in
                        estimates(y, 0..<width, means, background: background)
                        sk_edge_weighted_rows(Int32(width), alpha + y * width, foreground, width, background, width, lastPass.row)
                        lastPass.push(emit: finish)
                    }
                    lastPass.finish(emit: finish)
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
