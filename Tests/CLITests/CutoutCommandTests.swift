import Foundation
import Processing
import SampleImages
import Testing

/// `catalog cutout` on the real binary. The network itself is tested in ProcessingTests (and scored
/// by `make bench-cutout`); here: transparent inputs (no model needed), errors, stdin/stdout.
@Suite struct CutoutCommandTests {
    private func transparentSample(_ folder: TemporaryFolder) throws -> String {
        let photo = try #require(SamplePhotos.demo(width: 320, height: 240).first { $0.name.hasSuffix(".png") })
        return try folder.write(photo.bytes, to: "sticker.png")
    }

    private let noModel = ["STICKER_MODEL_DIR": "/nonexistent-model-folder"]

    @Test func transparentPNGBecomesAnOutlinedSticker() throws {
        let folder = try TemporaryFolder()
        let input = try transparentSample(folder)
        let run = try CLI.run(["cutout", input, "-o", "out.png", "--size", "256"], in: folder, environment: noModel)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let sticker = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.url.appendingPathComponent("out.png"))), maxPixels: 1_000_000)
        #expect(max(sticker.width, sticker.height) == 256)
        #expect(sticker.pixel(x: 0, y: 0).alpha == 0, "transparent around the sticker")
        #expect(sticker.hasTransparency)
    }

    @Test func maskOnlyNoCropIsAtTheInputSize() throws {
        let folder = try TemporaryFolder()
        let input = try transparentSample(folder)
        let run = try CLI.run(["cutout", input, "-o", "mask.png", "--mask-only", "--no-crop"], in: folder, environment: noModel)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let mask = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.url.appendingPathComponent("mask.png"))), maxPixels: 1_000_000)
        #expect(mask.width == 240 && mask.height == 240)
        #expect(mask.pixel(x: 120, y: 120) == (255, 255, 255, 255), "the subject is white")
        #expect(mask.pixel(x: 0, y: 0) == (0, 0, 0, 255), "the background is black")
    }

    @Test func standardInputToStandardOutput() throws {
        let folder = try TemporaryFolder()
        let input = try transparentSample(folder)
        // 256: the 240-pixel sample's subject is too small for 512 (it is enlarged at most twice).
        let run = try CLI.run(["cutout", "-", "-o", "-", "--size", "256"], in: folder, environment: noModel, stdin: try Data(contentsOf: URL(fileURLWithPath: input)))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let sticker = try PNGCodec.decode([UInt8](run.stdoutData), maxPixels: 1_000_000)
        #expect(max(sticker.width, sticker.height) == 256)
    }

    @Test func opaquePhotoWithoutAModelSaysHowToInstallIt() throws {
        let folder = try TemporaryFolder()
        let photo = try #require(SamplePhotos.demo(width: 320, height: 240).first { $0.name.hasSuffix(".jpg") })
        let input = try folder.write(photo.bytes, to: "photo.jpg")
        let run = try CLI.run(["cutout", input, "-o", "out.png"], in: folder, environment: noModel)
        #expect(run.status == 69)
        #expect(run.stderr.contains("photo.jpg") && run.stderr.contains("/nonexistent-model-folder") && run.stderr.contains("make model"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.png")))
    }

    @Test func badInputIsNamed() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write(Array("not a photo".utf8), to: "notes.jpg")
        let run = try CLI.run(["cutout", input, "-o", "out.png"], in: folder, environment: noModel)
        #expect(run.status == 65)
        #expect(run.stderr.contains("notes.jpg") && run.stderr.contains("unsupported format"))
        let missing = try CLI.run(["cutout", folder.path("absent.jpg"), "-o", "out.png"], in: folder, environment: noModel)
        #expect(missing.status == 74)
        let usage = try CLI.run(["cutout", input], in: folder)
        #expect(usage.status == 64, "-o is required")
    }
}

/// The real network on a generated photo whose true mask is known (runs when the model is installed:
/// `make test` installs it).
@Suite(.needsModel)
struct CutoutWithModelTests {
    @Test func generatedSceneIsCutOutNearExactly() throws {
        let folder = try TemporaryFolder()
        let scene = SampleScene(
            width: 480, height: 360, background: .gradient(top: RGB(150, 200, 235), bottom: RGB(60, 110, 70)),
            shape: .ellipse, subjectColor: RGB(240, 120, 20), centerX: 0.5, centerY: 0.55, radius: 0.3, seed: 3
        )
        let input = try folder.write(try SamplePhotos.jpeg(scene, exif: nil, quality: 92), to: "scene.jpg")
        let run = try CLI.run(["cutout", input, "-o", "mask.png", "--mask-only", "--no-crop"], in: folder,
                              environment: ["STICKER_MODEL_DIR": try #require(InstalledModel.folder)])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let mask = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.url.appendingPathComponent("mask.png"))), maxPixels: 1_000_000)
        let truth = scene.renderMask()
        var intersection = 0, union = 0
        for index in 0..<truth.count {
            let predicted = mask.pixels[index * 4] > 127, actual = truth[index] > 127
            if predicted && actual { intersection += 1 }
            if predicted || actual { union += 1 }
        }
        let iou = Double(intersection) / Double(max(1, union))
        #expect(iou >= 0.95, "IoU \(iou)")
    }
}
