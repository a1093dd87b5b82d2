/// Removes the old background's colour from a cut-out's soft edges, so a subject lifted off a
/// green lawn has no green halo on white paper. Blur-Fusion foreground estimation (Forte & Pitié,
/// "Approximate Fast Foreground Colour Estimation", ICIP 2021), run twice: a wide pass, then a
/// narrow one. Pixels with alpha 0 or 1 keep their colour.
///
/// Each pass needs seven box means (alpha, and per channel the alpha-weighted foreground and the
/// (1 − alpha)-weighted background). They run as two streamed `BoxFilter.means` calls of four and
/// three planes, the products formed as rows go in and the estimates updated as rows come out, so
/// no temporary plane is made; each plane gets the same operations as filtered alone, so the
/// colours are the same, bit for bit, as seven separate means.
public enum EdgeDecontamination {
    /// The image's colours re-estimated where `alpha` (0...1, one value a pixel) is soft.
    public static func decontaminated(_ image: RGBAImage, alpha: [Float]) -> RGBAImage {
        let width = image.width, height = image.height
        let count = width * height
        precondition(alpha.count == count, "EdgeDecontamination: alpha and image sizes differ")
        // Planes, one after another: observed R, G, B; foreground R, G, B; background R, G, B;
        // the blurred alpha and the three blurred alpha-weighted foregrounds of the current pass.
        let planes = UnsafeMutablePointer<Float>.allocate(capacity: 13 * count)
        defer { planes.deallocate() }
        let observed = planes, foreground = planes + 3 * count, background = planes + 6 * count
        let blurred = planes + 9 * count  // alpha, then weighted foreground R, G, B
        image.pixels.withUnsafeBufferPointer { pixels in
            for index in 0..<count {
                for channel in 0..<3 { observed[channel * count + index] = Float(pixels[index * 4 + channel]) / 255 }
            }
        }
        foreground.update(from: observed, count: 3 * count)
        background.update(from: observed, count: 3 * count)
        let radii = [max(2, min(width, height) / 12), max(1, min(width, height) / 170)]
        alpha.withUnsafeBufferPointer { alpha in
            let alpha = alpha.baseAddress!
            for radius in radii {
                // Alpha and the alpha-weighted foregrounds.
                BoxFilter.means(planes: 4, width: width, height: height, radius: radius) { y, rows in
                    let offset = y * width
                    rows.update(from: alpha + offset, count: width)
                    for channel in 0..<3 {
                        let source = foreground + channel * count + offset, target = rows + (channel + 1) * width
                        for x in 0..<width { target[x] = source[x] * alpha[offset + x] }
                    }
                } emit: { y, means in
                    for plane in 0..<4 { (blurred + plane * count + y * width).update(from: means + plane * width, count: width) }
                }
                // The (1 − alpha)-weighted backgrounds; each row's estimates are updated as its means
                // come out (the rows still to be read in are below it, so not yet updated).
                BoxFilter.means(planes: 3, width: width, height: height, radius: radius) { y, rows in
                    let offset = y * width
                    for channel in 0..<3 {
                        let source = background + channel * count + offset, target = rows + channel * width
                        for x in 0..<width { target[x] = source[x] * (1 - alpha[offset + x]) }
                    }
                } emit: { y, means in
                    for channel in 0..<3 {
                        for x in 0..<width {
                            let index = y * width + x
                            let a = alpha[index]
                            let blurredAlpha = blurred[index]
                            let blurredInverse = 1 - blurredAlpha
                            let seen = observed[channel * count + index]
                            let weightedF = blurred[(channel + 1) * count + index], weightedB = means[channel * width + x]
                            let estimateF = blurredAlpha > 1e-5 ? weightedF / blurredAlpha : seen
                            let estimateB = blurredInverse > 1e-5 ? weightedB / blurredInverse : seen
                            let residual = seen - a * estimateF - (1 - a) * estimateB
                            foreground[channel * count + index] = min(1, max(0, estimateF + a * residual))
                            background[channel * count + index] = min(1, max(0, estimateB + (1 - a) * residual))
                        }
                    }
                }
            }
        }
        var pixels = image.pixels
        for index in 0..<count where alpha[index] > 0 && alpha[index] < 1 {
            for channel in 0..<3 {
                pixels[index * 4 + channel] = UInt8((foreground[channel * count + index] * 255).rounded())
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
