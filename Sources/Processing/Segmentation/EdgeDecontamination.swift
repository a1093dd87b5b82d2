/// Removes the old background's colour from a cut-out's soft edges, so a subject lifted off a
/// green lawn has no green halo on white paper. Blur-Fusion foreground estimation (Forte & Pitié,
/// "Approximate Fast Foreground Colour Estimation", ICIP 2021), run twice: a wide pass, then a
/// narrow one. Pixels with alpha 0 or 1 keep their colour.
public enum EdgeDecontamination {
    /// The image's colours re-estimated where `alpha` (0...1, one value a pixel) is soft.
    public static func decontaminated(_ image: RGBAImage, alpha: [Float]) -> RGBAImage {
        let width = image.width, height = image.height
        precondition(alpha.count == width * height, "EdgeDecontamination: alpha and image sizes differ")
        let observed: [[Float]] = (0..<3).map { channel in
            (0..<alpha.count).map { Float(image.pixels[$0 * 4 + channel]) / 255 }
        }
        var foreground = observed
        var background = observed
        let radii = [max(2, min(width, height) / 12), max(1, min(width, height) / 170)]
        for radius in radii {
            let blurredAlpha = BoxFilter.mean(alpha, width: width, height: height, radius: radius)
            let blurredInverse = blurredAlpha.map { 1 - $0 }
            for channel in 0..<3 {
                let weightedF = BoxFilter.mean(zip(foreground[channel], alpha).map(*), width: width, height: height, radius: radius)
                let weightedB = BoxFilter.mean(zip(background[channel], alpha).map { $0 * (1 - $1) }, width: width, height: height, radius: radius)
                for index in 0..<alpha.count {
                    let a = alpha[index]
                    let estimateF = blurredAlpha[index] > 1e-5 ? weightedF[index] / blurredAlpha[index] : observed[channel][index]
                    let estimateB = blurredInverse[index] > 1e-5 ? weightedB[index] / blurredInverse[index] : observed[channel][index]
                    let residual = observed[channel][index] - a * estimateF - (1 - a) * estimateB
                    foreground[channel][index] = min(1, max(0, estimateF + a * residual))
                    background[channel][index] = min(1, max(0, estimateB + (1 - a) * residual))
                }
            }
        }
        var pixels = image.pixels
        for index in 0..<alpha.count where alpha[index] > 0 && alpha[index] < 1 {
            for channel in 0..<3 {
                pixels[index * 4 + channel] = UInt8((foreground[channel][index] * 255).rounded())
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
