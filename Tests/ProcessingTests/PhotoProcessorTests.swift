import SampleImages
import Testing
@testable import Processing

/// The whole pipeline (version 1) from a file's bytes: decode, orient, cut out, render the sticker.
@Suite(.timeLimit(.minutes(15))) struct PhotoProcessorTests {
    /// A predictor that must not be asked (photos with their own transparency need none).
    struct Refusing: MaskPredictor {
        func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
            Issue.record("the predictor was asked for a mask")
            throw .segmentationUnavailable("refused")
        }
    }

    static let scene = SampleScene(
        width: 480, height: 360, background: .noise(RGB(60, 120, 70), amplitude: 12), shape: .ellipse,
        subjectColor: RGB(230, 90, 40), centerX: 0.4, centerY: 0.5, radius: 0.3, seed: 11
    )

    @Test func rotatedJPEGBecomesACutOutSticker() async throws {
        let jpeg = try SamplePhotos.jpeg(Self.scene, exif: ExifMetadata(make: "Test", orientation: 6), quality: 92)
        let truth = Self.scene.renderMask()
        let settings = StickerSettings(size: 256, outline: 8, shadow: false, paletteColors: 5)
        let processor = PhotoProcessor(settings: settings, predictor: SubjectSegmenterTests.CoarseTruth(truth: truth, width: 480, height: 360, factor: 12))
        let processed = try await processor.process(jpeg)
        #expect(processed.width == 480 && processed.height == 360)
        #expect(processed.pipelineVersion == 6 && PhotoProcessor.pipelineVersion == 6)
        #expect(processed.settings == settings)
        #expect(processed.exif?.make == "Test")

        let sticker = try PNGCodec.decode(processed.sticker.png, maxPixels: 1_000_000)
        #expect((sticker.width, sticker.height) == (processed.sticker.width, processed.sticker.height))
        #expect(max(sticker.width, sticker.height) == 256)
        #expect(sticker.pixel(x: 0, y: 0).alpha == 0, "transparent background")
        #expect(sticker.pixel(x: sticker.width - 1, y: sticker.height - 1).alpha == 0)
        let centre = sticker.pixel(x: sticker.width / 2, y: sticker.height / 2)
        #expect(centre.alpha == 255 && Int(centre.red) > 180 && centre.green < 140, "the subject's orange: \(centre)")

        // Cropped to the subject: the sticker has the subject's proportions, with the outline's room around it.
        let box = try #require(MaskOutput.subjectBounds(truth, width: 480, height: 360))
        let padding = settings.style.padding
        let stickerAspect = Double(sticker.width - 2 * padding) / Double(sticker.height - 2 * padding)
        let subjectAspect = Double(box.width) / Double(box.height)
        #expect(abs(stickerAspect / subjectAspect - 1) < 0.06, "sticker \(stickerAspect), subject \(subjectAspect)")
        // On the middle row, the first visible pixels from the left are the white outline, then the subject.
        let row = sticker.height / 2
        let first = try #require((0..<sticker.width).first { sticker.pixel(x: $0, y: row).alpha > 0 })
        #expect(sticker.pixel(x: first + 1, y: row) == (255, 255, 255, 255), "a 4-pixel outline at 256")
        #expect(Int(sticker.pixel(x: first + 12, y: row).red) > 180 && sticker.pixel(x: first + 12, y: row).green < 140)
    }

    @Test func transparentPNGKeepsItsOwnAlpha() async throws {
        var scene = Self.scene
        scene.width = 300
        let png = try SamplePhotos.transparentPNG(scene)
        let processed = try await PhotoProcessor(predictor: Refusing()).process(png)
        let expected = try StickerRenderer.render(try PNGCodec.decode(png, maxPixels: 1_000_000), style: StickerSettings.default.style)
        let sticker = try PNGCodec.decode(processed.sticker.png, maxPixels: 1_000_000)
        #expect(sticker == expected)
        #expect(processed.pipelineVersion == 6)
    }

    @Test func aPhotoWithoutASubjectIsNoSubject() async throws {
        let jpeg = try SamplePhotos.jpeg(Self.scene, exif: nil)
        await #expect(throws: ProcessingError.noSubject("the photo has no distinct subject")) {
            try await PhotoProcessor(predictor: SubjectSegmenterTests.Nothing()).process(jpeg)
        }
    }

    @Test func anOpaquePhotoWithoutAModelIsSegmentationUnavailable() async throws {
        let jpeg = try SamplePhotos.jpeg(Self.scene, exif: nil)
        do {
            _ = try await PhotoProcessor(predictor: nil).process(jpeg)
            Issue.record("processed without a model")
        } catch {
            #expect(error.code == "segmentation-unavailable")
        }
    }
}
