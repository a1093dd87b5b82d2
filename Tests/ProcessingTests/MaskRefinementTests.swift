import SampleImages
import Testing
@testable import Processing

/// Guided-filter refinement of a coarse mask, and edge-colour decontamination, on scenes whose truth is known.
@Suite(.timeLimit(.minutes(15))) struct MaskRefinementTests {
    private func intersectionOverUnion(_ mask: [Float], _ truth: [UInt8]) -> Double {
        var intersection = 0, union = 0
        for index in 0..<mask.count {
            let predicted = mask[index] > 0.5, actual = truth[index] > 127
            if predicted && actual { intersection += 1 }
            if predicted || actual { union += 1 }
        }
        return union == 0 ? 1 : Double(intersection) / Double(union)
    }

    /// The truth shrunk by `factor` (area average) and blown back up bilinearly: what a low-resolution segmenter gives.
    private func coarse(_ truth: [UInt8], width: Int, height: Int, factor: Int) throws -> [Float] {
        let predictor = SubjectSegmenterTests.CoarseTruth(truth: truth, width: width, height: height, factor: factor)
        let small = try predictor.predictMask(for: RGBAImage(width: 1, height: 1, red: 0, green: 0, blue: 0))
        return SubjectSegmenter.bilinear(small, width: width, height: height)
    }

    @Test(arguments: SampleScene.Shape.allCases)
    func guidedFilterSnapsACoarseMaskToTheEdges(shape: SampleScene.Shape) throws {
        let scene = SampleScene(
            width: 320, height: 240, background: .gradient(top: RGB(30, 60, 140), bottom: RGB(20, 90, 40)),
            shape: shape, subjectColor: RGB(250, 180, 40), centerX: 0.45, centerY: 0.5, radius: 0.35
        )
        let truth = scene.renderMask()
        let rough = try coarse(truth, width: 320, height: 240, factor: 8)
        let refined = GuidedFilter.refine(rough, guide: scene.renderPhoto(), radius: 6, epsilon: 1e-4)
        let before = intersectionOverUnion(rough, truth)
        let after = intersectionOverUnion(refined, truth)
        #expect(after >= 0.97, "\(shape): IoU \(after)")
        #expect(after >= before, "\(shape): refinement must not make it worse (\(before) -> \(after))")
    }

    /// The byte form rounds exactly as `UInt8((value * 255).rounded())` (ties away from zero) of the float form.
    @Test func refinedBytesAreTheRefinedMaskRounded() throws {
        let scene = SampleScene(
            width: 160, height: 120, background: .gradient(top: RGB(30, 60, 140), bottom: RGB(20, 90, 40)),
            shape: .star, subjectColor: RGB(250, 180, 40), centerX: 0.45, centerY: 0.5, radius: 0.35
        )
        let rough = try coarse(scene.renderMask(), width: 160, height: 120, factor: 8)
        let photo = scene.renderPhoto()
        for radius in [1, 3, 8] {
            let refined = GuidedFilter.refine(rough, guide: photo, radius: radius)
            #expect(GuidedFilter.refinedBytes(rough, guide: photo, radius: radius) == refined.map { UInt8(($0 * 255).rounded()) })
        }
        // Values whose * 255 lands on a tie or next to one, fed through a flat guide (a = 0, so q = mean p).
        let ties = (0..<256).map { Float($0) / 255 } + (0..<255).map { (Float($0) + 0.5) / 255 }
        let flat = RGBAImage(width: ties.count, height: 1, red: 90, green: 90, blue: 90)
        let exact = GuidedFilter.refine(ties, guide: flat, radius: 0)
        #expect(GuidedFilter.refinedBytes(ties, guide: flat, radius: 0) == exact.map { UInt8(($0 * 255).rounded()) })
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
