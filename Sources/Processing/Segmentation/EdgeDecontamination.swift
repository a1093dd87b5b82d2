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
/// foreground alone, and only on rows that hold an edge pixel; the first pass must update every
/// pixel, since the last one's windows read them.
public enum EdgeDecontamination {
    /// The image's colours re-estimated where `alpha` (0...1, one value a pixel) is soft.
    public static func decontaminated(_ image: RGBAImage, alpha: [Float]) -> RGBAImage {
        let width = image.width, height = image.height
        let count = width * height
        precondition(alpha.count == count, "EdgeDecontamination: alpha and image sizes differ")
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
        let edgeRows = alpha.withUnsafeBufferPointer { alpha in
            (0..<height).map { y in alpha[(y * width)..<((y + 1) * width)].contains { $0 > 0 && $0 < 1 } }
        }
        let radii = [max(2, min(width, height) / 12), max(1, min(width, height) / 170)]
        var pixels = image.pixels
        image.pixels.withUnsafeBufferPointer { source in
            alpha.withUnsafeBufferPointer { alpha in
                pixels.withUnsafeMutableBufferPointer { pixels in
                    let source = source.baseAddress!, alpha = alpha.baseAddress!, pixels = pixels.baseAddress!
                    /// Row `y`'s observed colours, 0...1, as three planes of `width` at `target`.
                    func observed(_ y: Int, into target: UnsafeMutablePointer<Float>) {
                        let row = source + 4 * y * width
                        for channel in 0..<3 {
                            let plane = target + channel * width
                            for x in 0..<width { plane[x] = Float(row[4 &* x &+ channel]) / 255 }
                        }
                    }
                    for (pass, radius) in radii.enumerated() {
                        let last = pass == radii.count - 1
                        // Planes: alpha, the alpha-weighted foregrounds, the (1 − alpha)-weighted backgrounds.
                        // A row's estimates are updated as its means come out; the rows still to be read
                        // in are below it, so not yet updated.
                        BoxFilter.means(planes: 7, width: width, height: height, radius: radius, wanted: last ? edgeRows : nil) { y, rows in
                            let offset = y * width, a = alpha + offset
                            // Before the first pass both estimates are the observed colours.
                            if pass == 0 { observed(y, into: observedIn) }
                            rows.update(from: a, count: width)
                            for channel in 0..<3 {
                                let source = pass == 0 ? observedIn + channel * width : foreground + channel * count + offset
                                let target = rows + (channel + 1) * width
                                for x in 0..<width { target[x] = source[x] * a[x] }
                            }
                            for channel in 0..<3 {
                                let source = pass == 0 ? observedIn + channel * width : background + channel * count + offset
                                let target = rows + (channel + 4) * width
                                for x in 0..<width { target[x] = source[x] * (1 - a[x]) }
                            }
                        } emit: { y, means in
                            let offset = y * width
                            observed(y, into: observedOut)
                            for channel in 0..<3 {
                                estimate(
                                    width: width, alpha: alpha + offset, blurredAlpha: means,
                                    weightedForeground: means + (channel + 1) * width, weightedBackground: means + (channel + 4) * width,
                                    seen: observedOut + channel * width,
                                    foreground: last ? finished + channel * width : foreground + channel * count + offset,
                                    background: last ? nil : background + channel * count + offset)
                            }
                            guard last else { return }
                            for x in 0..<width where alpha[offset + x] > 0 && alpha[offset + x] < 1 {
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
