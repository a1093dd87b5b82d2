import SampleImages
import Testing
@testable import Processing

/// Guided-filter refinement of a coarse mask, and edge-colour decontamination, on scenes whose truth is known.
@Suite struct MaskRefinementTests {
    private func intersectionOverUnion(_ mask: [Float], _ truth: [UInt8]) -> Double {
        var intersection = 0, union = 0
        for index in 0..<mask.count {
            let predicted = mask[index] > 0.5, actual = truth[index] > 127
            if predicted && actual { intersection += 1 }
            if predicted || actual { union += 1 }
        }
        return union == 0 ? 1 : Double(intersection) / Double(union)
    }

    /// The truth shrunk 8x (area average) and blown back up bilinearly: what a low-resolution segmenter gives.
    private func coarse(_ truth: [UInt8], width: Int, height: Int, factor: Int) -> [Float] {
        let smallWidth = width / factor, smallHeight = height / factor
        var small = [Float](repeating: 0, count: smallWidth * smallHeight)
        for y in 0..<smallHeight {
            for x in 0..<smallWidth {
                var sum = 0
                for dy in 0..<factor { for dx in 0..<factor { sum += Int(truth[(y * factor + dy) * width + x * factor + dx]) } }
                small[y * smallWidth + x] = Float(sum) / Float(255 * factor * factor)
            }
        }
        var result = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            let sy = min(Float(smallHeight - 1), max(0, (Float(y) + 0.5) / Float(factor) - 0.5))
            let y0 = Int(sy), y1 = min(smallHeight - 1, y0 + 1), fy = sy - Float(y0)
            for x in 0..<width {
                let sx = min(Float(smallWidth - 1), max(0, (Float(x) + 0.5) / Float(factor) - 0.5))
                let x0 = Int(sx), x1 = min(smallWidth - 1, x0 + 1), fx = sx - Float(x0)
                let top = small[y0 * smallWidth + x0] * (1 - fx) + small[y0 * smallWidth + x1] * fx
                let bottom = small[y1 * smallWidth + x0] * (1 - fx) + small[y1 * smallWidth + x1] * fx
                result[y * width + x] = top * (1 - fy) + bottom * fy
            }
        }
        return result
    }

    @Test(arguments: SampleScene.Shape.allCases)
    func guidedFilterSnapsACoarseMaskToTheEdges(shape: SampleScene.Shape) {
        let scene = SampleScene(
            width: 320, height: 240, background: .gradient(top: RGB(30, 60, 140), bottom: RGB(20, 90, 40)),
            shape: shape, subjectColor: RGB(250, 180, 40), centerX: 0.45, centerY: 0.5, radius: 0.35
        )
        let truth = scene.renderMask()
        let rough = coarse(truth, width: 320, height: 240, factor: 8)
        let refined = GuidedFilter.refine(rough, guide: scene.renderPhoto(), radius: 6, epsilon: 1e-4)
        let before = intersectionOverUnion(rough, truth)
        let after = intersectionOverUnion(refined, truth)
        #expect(after >= 0.97, "\(shape): IoU \(after)")
        #expect(after >= before, "\(shape): refinement must not make it worse (\(before) -> \(after))")
    }

    @Test func decontaminationRemovesTheBackgroundFromSoftEdges() {
        let width = 64, height = 64
        var image = RGBAImage(width: width, height: height, red: 0, green: 128, blue: 0)
        var alpha = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<32 {
                alpha[y * width + x] = 1
                image.pixels.replaceSubrange((y * width + x) * 4 ..< (y * width + x) * 4 + 3, with: [255, 0, 0])
            }
            // A soft edge: half red subject, half green lawn.
            alpha[y * width + 32] = 0.5
            image.pixels.replaceSubrange((y * width + 32) * 4 ..< (y * width + 32) * 4 + 3, with: [128, 64, 0])
        }
        let cleaned = EdgeDecontamination.decontaminated(image, alpha: alpha)
        let edge = cleaned.pixel(x: 32, y: 32)
        #expect(edge.red > 220 && edge.green < 25, "edge colour \(edge)")
        #expect(cleaned.pixel(x: 10, y: 10) == image.pixel(x: 10, y: 10), "opaque pixels keep their colour")
        #expect(cleaned.pixel(x: 50, y: 10) == image.pixel(x: 50, y: 10), "transparent pixels keep theirs")
    }
}
