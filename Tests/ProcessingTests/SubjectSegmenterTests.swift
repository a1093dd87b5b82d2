import SampleImages
import Testing
@testable import Processing

/// The cut-out pipeline around a mask predictor: upsampling, refinement, clean-up, decontamination,
/// and photos that bring their own transparency.
@Suite(.timeLimit(.minutes(15))) struct SubjectSegmenterTests {
    /// A predictor that knows the truth, but only at a coarse grid (as a network at 320 px would).
    struct CoarseTruth: MaskPredictor {
        let truth: [UInt8]
        let width: Int
        let height: Int
        let factor: Int

        func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
            let smallWidth = width / factor, smallHeight = height / factor
            var values = [Float](repeating: 0, count: smallWidth * smallHeight)
            for y in 0..<smallHeight {
                for x in 0..<smallWidth {
                    var sum = 0
                    for dy in 0..<factor { for dx in 0..<factor { sum += Int(truth[(y * factor + dy) * width + x * factor + dx]) } }
                    values[y * smallWidth + x] = Float(sum) / Float(255 * factor * factor)
                }
            }
            return LowResolutionMask(width: smallWidth, height: smallHeight, values: values)
        }
    }

    struct Nothing: MaskPredictor {
        func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
            LowResolutionMask(width: 8, height: 8, values: [Float](repeating: 0.01, count: 64))
        }
    }

    @Test(arguments: SampleScene.Shape.allCases)
    func syntheticSceneComesOutNearExact(shape: SampleScene.Shape) throws {
        let scene = SampleScene(
            width: 480, height: 360, background: .noise(RGB(60, 120, 70), amplitude: 12), shape: shape,
            subjectColor: RGB(230, 90, 40), accentColor: RGB(250, 230, 200), centerX: 0.55, centerY: 0.45, radius: 0.33, seed: 7
        )
        let truth = scene.renderMask()
        let segmenter = SubjectSegmenter(predictor: CoarseTruth(truth: truth, width: 480, height: 360, factor: 12))
        let (cutout, mask) = try segmenter.cutout(scene.renderPhoto())
        var intersection = 0, union = 0
        for index in 0..<mask.count {
            let predicted = mask[index] > 0.5, actual = truth[index] > 127
            if predicted && actual { intersection += 1 }
            if predicted || actual { union += 1 }
        }
        let iou = Double(intersection) / Double(union)
        #expect(iou >= 0.97, "\(shape): IoU \(iou)")
        #expect(cutout.pixel(x: 5, y: 5).alpha == 0, "background is transparent")
        // No green halo: soft edge pixels lean to the subject's orange, not the lawn's green.
        var haloed = 0, soft = 0
        for index in 0..<mask.count where mask[index] > 0.1 && mask[index] < 0.9 {
            soft += 1
            if cutout.pixels[index * 4 + 1] > cutout.pixels[index * 4] { haloed += 1 }
        }
        #expect(soft > 0 && haloed * 10 < soft, "\(shape): \(haloed) of \(soft) edge pixels are greener than red")
    }

    @Test func transparentImagesKeepTheirAlphaWithoutAModel() throws {
        let scene = SampleScene(width: 200, height: 200, background: .gradient(top: RGB(0, 0, 0), bottom: RGB(0, 0, 0)),
                                shape: .star, subjectColor: RGB(60, 180, 75), radius: 0.4)
        let cutout = scene.renderCutout()
        let result = try SubjectSegmenter(predictor: nil).cutout(cutout)
        #expect(result.cutout == cutout)
        #expect(result.mask.count == 200 * 200)
    }

    @Test func opaquePhotoWithoutAModelIsAClearError() {
        let photo = RGBAImage(width: 50, height: 40, red: 10, green: 20, blue: 30)
        #expect(throws: ProcessingError.self) { try SubjectSegmenter(predictor: nil).cutout(photo) }
        do {
            _ = try SubjectSegmenter(predictor: nil).cutout(photo)
        } catch {
            #expect(error.code == "segmentation-unavailable")
        }
    }

    @Test func nothingDistinctIsNoSubject() {
        let photo = RGBAImage(width: 64, height: 64, red: 128, green: 128, blue: 128)
        #expect(throws: ProcessingError.noSubject("the photo has no distinct subject")) {
            try SubjectSegmenter(predictor: Nothing()).cutout(photo)
        }
    }
}
