import Testing
@testable import Processing

/// The streamed, vectorised decontamination against the method written out plainly: seven
/// separate box means a pass and one pixel at a time, every colour kept.
@Suite(.timeLimit(.minutes(15))) struct EdgeDecontaminationTests {
    /// Blur-Fusion as the paper states it, with nothing fused, skipped or vectorised.
    static func reference(_ image: RGBAImage, alpha: [Float]) -> RGBAImage {
        let width = image.width, height = image.height, count = width * height
        var observed = [[Float]](repeating: [], count: 3)
        for channel in 0..<3 { observed[channel] = (0..<count).map { Float(image.pixels[$0 * 4 + channel]) / 255 } }
        var foreground = observed, background = observed
        for radius in [max(2, min(width, height) / 12), max(1, min(width, height) / 170)] {
            let blurredAlpha = BoxFilter.mean(alpha, width: width, height: height, radius: radius)
            for channel in 0..<3 {
                let weightedF = BoxFilter.mean((0..<count).map { foreground[channel][$0] * alpha[$0] }, width: width, height: height, radius: radius)
                let weightedB = BoxFilter.mean((0..<count).map { background[channel][$0] * (1 - alpha[$0]) }, width: width, height: height, radius: radius)
                for index in 0..<count {
                    let a = alpha[index], seen = observed[channel][index]
                    let estimateF = blurredAlpha[index] > 1e-5 ? weightedF[index] / blurredAlpha[index] : seen
                    let estimateB = 1 - blurredAlpha[index] > 1e-5 ? weightedB[index] / (1 - blurredAlpha[index]) : seen
                    let residual = seen - a * estimateF - (1 - a) * estimateB
                    foreground[channel][index] = min(1, max(0, estimateF + a * residual))
                    background[channel][index] = min(1, max(0, estimateB + (1 - a) * residual))
                }
            }
        }
        var pixels = image.pixels
        for index in 0..<count where alpha[index] > 0 && alpha[index] < 1 {
            for channel in 0..<3 { pixels[index * 4 + channel] = UInt8((foreground[channel][index] * 255).rounded()) }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Noise under a mask that is a solid disc with a soft rim, some stray soft pixels, and rows
    /// with no soft pixel at all (which the last pass skips).
    static func scene(width: Int, height: Int, seed: UInt64) -> (RGBAImage, [Float]) {
        var random = MaskCleanupTests.Random(state: seed)
        let pixels = (0..<(width * height * 4)).map { $0 % 4 == 3 ? UInt8(255) : UInt8(random.next(256)) }
        var alpha = [Float](repeating: 0, count: width * height)
        let centreX = Double(width) / 2, centreY = Double(height) / 3, radius = Double(min(width, height)) / 4
        for y in 0..<height {
            for x in 0..<width {
                let distance = ((Double(x) - centreX) * (Double(x) - centreX) + (Double(y) - centreY) * (Double(y) - centreY)).squareRoot()
                let byte = distance < radius - 2 ? 255 : distance > radius + 2 ? 0 : random.next(256)
                alpha[y * width + x] = Float(byte) / 255
            }
        }
        for _ in 0..<(width * height / 200) { alpha[random.next(width * height / 2)] = Float(random.next(256)) / 255 }
        return (RGBAImage(width: width, height: height, pixels: pixels), alpha)
    }

    @Test(arguments: [(64, 48), (67, 41), (130, 97), (5, 3), (1, 1), (203, 17)])
    func matchesTheMethodBitForBit(width: Int, height: Int) {
        let (image, alpha) = Self.scene(width: width, height: height, seed: UInt64(width * 1000 + height))
        #expect(EdgeDecontamination.decontaminated(image, alpha: alpha) == Self.reference(image, alpha: alpha))
    }

    @Test func hardMasksLeaveTheImageAlone() {
        let (image, soft) = Self.scene(width: 50, height: 40, seed: 3)
        let hard = soft.map { $0 >= 0.5 ? Float(1) : 0 }
        #expect(EdgeDecontamination.decontaminated(image, alpha: hard) == image)
    }
}
