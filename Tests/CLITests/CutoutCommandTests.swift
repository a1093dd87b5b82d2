import Foundation
import Processing
import SampleImages
import Testing

/// `catalog cutout` on the real binary. The network itself is tested in ProcessingTests (and scored
/// by `make bench-cutout`); here: transparent inputs (no model needed), errors, stdin/stdout.
@Suite(.timeLimit(.minutes(15))) struct CutoutCommandTests {
    private func transparentSample(_ folder: TemporaryFolder) throws -> String {
        let photo = try #require(SamplePhotos.demoStills(width: 320, height: 240).first { $0.name.hasSuffix(".png") })
        return try folder.write(photo.bytes, to: "sticker.png")
    }

    private let noModel = ["STICKER_MODEL_DIR": "/nonexistent-model-folder"]

    @Test func transparentPNGBecomesAnOutlinedSticker() async throws {
        let folder = try TemporaryFolder()
        let input = try transparentSample(folder)
        let run = try await CLI.run(["cutout", input, "-o", "out.png", "--size", "256"], in: folder, environment: noModel)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let sticker = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.url.appendingPathComponent("out.png"))), maxPixels: 1_000_000)
        #expect(max(sticker.width, sticker.height) == 256)
        #expect(sticker.pixel(x: 0, y: 0).alpha == 0, "transparent around the sticker")
        #expect(sticker.hasTransparency)
    }

    @Test func maskOnlyNoCropIsAtTheInputSize() async throws {
        let folder = try TemporaryFolder()
        let input = try transparentSample(folder)
        let run = try await CLI.run(["cutout", input, "-o", "mask.png", "--mask-only", "--no-crop"], in: folder, environment: noModel)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let mask = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.url.appendingPathComponent("mask.png"))), maxPixels: 1_000_000)
        #expect(mask.width == 240 && mask.height == 240)
        #expect(mask.pixel(x: 120, y: 120) == (255, 255, 255, 255), "the subject is white")
        #expect(mask.pixel(x: 0, y: 0) == (0, 0, 0, 255), "the background is black")
    }

    @Test func standardInputToStandardOutput() async throws {
        let folder = try TemporaryFolder()
        let input = try transparentSample(folder)
        // 256: the 240-pixel sample's subject is too small for 512 (it is enlarged at most twice).
        let run = try await CLI.run(["cutout", "-", "-o", "-", "--size", "256"], in: folder, environment: noModel, stdin: try Data(contentsOf: URL(fileURLWithPath: input)))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let sticker = try PNGCodec.decode([UInt8](run.stdoutData), maxPixels: 1_000_000)
        #expect(max(sticker.width, sticker.height) == 256)
    }

    @Test func opaquePhotoWithoutAModelSaysHowToInstallIt() async throws {
        let folder = try TemporaryFolder()
        let photo = try #require(SamplePhotos.demoStills(width: 320, height: 240).first { $0.name.hasSuffix(".jpg") })
        let input = try folder.write(photo.bytes, to: "photo.jpg")
        let run = try await CLI.run(["cutout", input, "-o", "out.png"], in: folder, environment: noModel)
        #expect(run.status == 69)
        #expect(run.stderr.contains("photo.jpg") && run.stderr.contains("/nonexistent-model-folder") && run.stderr.contains("make model"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.png")))
    }

    @Test func badInputIsNamed() async throws {
        let folder = try TemporaryFolder()
        let input = try folder.write(Array("not a photo".utf8), to: "notes.jpg")
        let run = try await CLI.run(["cutout", input, "-o", "out.png"], in: folder, environment: noModel)
        #expect(run.status == 65)
        #expect(run.stderr.contains("notes.jpg") && run.stderr.contains("unsupported format"))
        let missing = try await CLI.run(["cutout", folder.path("absent.jpg"), "-o", "out.png"], in: folder, environment: noModel)
        #expect(missing.status == 74)
        let usage = try await CLI.run(["cutout", input], in: folder)
        #expect(usage.status == 64, "-o is required")
    }
}

/// `catalog cutout --box/--include/--exclude`: values checked before any work, and against the photo
/// once its header is read.
@Suite(.timeLimit(.minutes(15))) struct CutoutGuidanceOptionTests {
    private let noModel = ["STICKER_MODEL_DIR": "/nonexistent-model-folder"]

    private func photo(_ folder: TemporaryFolder) throws -> String {
        let scene = SampleScene(width: 320, height: 240, background: .gradient(top: RGB(150, 200, 235), bottom: RGB(60, 110, 70)),
                                shape: .ellipse, subjectColor: RGB(240, 120, 20))
        return try folder.write(try SamplePhotos.jpeg(scene, exif: nil), to: "photo.jpg")
    }

    @Test(arguments: [
        (["--box", "10,10,50"], "'--box <x,y,w,h>': invalid box '10,10,50': expected X,Y,W,H in whole pixels"),
        (["--box", "10,10,0,40"], "invalid box '10,10,0,40': its width and height must be at least 1 pixel"),
        (["--box", "1.5,2,30,30"], "invalid box '1.5,2,30,30'"),
        (["--include", "12"], "'--include <x,y>': invalid point '12': expected X,Y in whole pixels"),
        (["--exclude", "a,b"], "'--exclude <x,y>': invalid point 'a,b'"),
    ])
    func malformedValuesAreUsageErrors(arguments: [String], message: String) async throws {
        let folder = try TemporaryFolder()
        let input = try photo(folder)
        let run = try await CLI.run(["cutout", input, "-o", "out.png"] + arguments, in: folder, environment: noModel)
        #expect(run.status == 64, "stderr: \(run.stderr)")
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
    }

    @Test(arguments: [
        (["--box", "300,200,40,10"], "box 300,200,40,10 is outside the photo (320 x 240 pixels upright"),
        (["--box", "-1,0,10,10"], "box -1,0,10,10 is outside the photo"),
        (["--include", "10,10", "--include", "320,5"], "include point 320,5 is outside the photo"),
        (["--exclude", "5,-5"], "exclude point 5,-5 is outside the photo"),
    ])
    func guidanceOutsideThePhotoIsAUsageErrorBeforeTheModel(arguments: [String], message: String) async throws {
        let folder = try TemporaryFolder()
        let input = try photo(folder)
        // No model is installed: the guidance is refused first, from the photo's size alone.
        let run = try await CLI.run(["cutout", input, "-o", "out.png"] + arguments, in: folder, environment: noModel)
        #expect(run.status == 64, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("error: \(input): invalid guidance: \(message)"), "stderr: \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.png")))
    }

    @Test func aBoxAppliesToATransparentImageWithoutAModel() async throws {
        let folder = try TemporaryFolder()
        let photo = try #require(SamplePhotos.demoStills(width: 320, height: 240).first { $0.name.hasSuffix(".png") })
        let input = try folder.write(photo.bytes, to: "sticker.png")
        let run = try await CLI.run(["cutout", input, "-o", "mask.png", "--mask-only", "--no-crop", "--box", "0,0,120,240"],
                              in: folder, environment: noModel)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let mask = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.url.appendingPathComponent("mask.png"))), maxPixels: 1_000_000)
        #expect(mask.pixel(x: 110, y: 120) == (255, 255, 255, 255), "the subject inside the box")
        #expect(mask.pixel(x: 130, y: 120) == (0, 0, 0, 255), "nothing outside the box")
    }
}

/// The real network on a generated photo whose true mask is known (runs when the model is installed:
/// `make test` installs it).
@Suite(.needsModel, .timeLimit(.minutes(15)))
struct CutoutWithModelTests {
    @Test func generatedSceneIsCutOutNearExactly() async throws {
        let folder = try TemporaryFolder()
        let scene = SampleScene(
            width: 480, height: 360, background: .gradient(top: RGB(150, 200, 235), bottom: RGB(60, 110, 70)),
            shape: .ellipse, subjectColor: RGB(240, 120, 20), centerX: 0.5, centerY: 0.55, radius: 0.3, seed: 3
        )
        let input = try folder.write(try SamplePhotos.jpeg(scene, exif: nil, quality: 92), to: "scene.jpg")
        let run = try await CLI.run(["cutout", input, "-o", "mask.png", "--mask-only", "--no-crop"], in: folder,
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

    @Test func aBoxPicksOneOfTwoSubjects() async throws {
        let folder = try TemporaryFolder()
        // Two subjects side by side; the box holds the right one and part of the ground around it.
        let left = SampleScene(width: 640, height: 360, background: .gradient(top: RGB(150, 200, 235), bottom: RGB(60, 110, 70)),
                               shape: .ellipse, subjectColor: RGB(240, 120, 20), centerX: 0.27, centerY: 0.5, radius: 0.3, seed: 3)
        var right = left
        right.centerX = 0.73
        right.subjectColor = RGB(200, 40, 160)
        var photo = left.renderPhoto()
        let rightPhoto = right.renderPhoto(), rightMask = right.renderMask()
        for index in rightMask.indices where rightMask[index] > 0 {
            for channel in 0..<3 { photo.pixels[index * 4 + channel] = rightPhoto.pixels[index * 4 + channel] }
        }
        let input = try folder.write(try PNGCodec.encode(photo), to: "two.png")
        let run = try await CLI.run(["cutout", input, "-o", "mask.png", "--mask-only", "--no-crop", "--box", "340,40,290,280"], in: folder,
                              environment: ["STICKER_MODEL_DIR": try #require(InstalledModel.folder)])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let mask = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.url.appendingPathComponent("mask.png"))), maxPixels: 1_000_000)
        var intersection = 0, union = 0, outside = 0
        for y in 0..<360 {
            for x in 0..<640 {
                let index = y * 640 + x
                let predicted = mask.pixels[index * 4] > 127, actual = rightMask[index] > 127
                if predicted && actual { intersection += 1 }
                if predicted || actual { union += 1 }
                if mask.pixels[index * 4] > 0 && (x < 340 || x >= 630 || y < 40 || y >= 320) { outside += 1 }
            }
        }
        let iou = Double(intersection) / Double(max(1, union))
        #expect(iou >= 0.9, "IoU with the right subject \(iou)")
        #expect(outside == 0, "\(outside) pixels outside the box")
    }
}
