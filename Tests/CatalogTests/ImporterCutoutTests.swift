import Foundation
import Processing
import SampleImages
import Testing

@testable import Catalog

/// What `Importer` stores with pipeline version 1: real cut-outs (a predictor that knows the
/// scene stands in for the network), transparent PNGs with their own alpha, no-subject failures.
@Suite(.timeLimit(.minutes(15))) struct ImporterCutoutTests {
    /// The scene's true mask at an eighth of the photo's size, as a 320-pixel network would see it.
    struct SceneTruth: MaskPredictor {
        let scene: SampleScene

        func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
            let truth = scene.renderMask()
            let factor = 8, width = scene.width / factor, height = scene.height / factor
            var values = [Float](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    var sum = 0
                    for dy in 0..<factor { for dx in 0..<factor { sum += Int(truth[(y * factor + dy) * scene.width + x * factor + dx]) } }
                    values[y * width + x] = Float(sum) / Float(255 * factor * factor)
                }
            }
            return LowResolutionMask(width: width, height: height, values: values)
        }
    }

    static let scene = SampleScene(
        width: 480, height: 360, background: .gradient(top: RGB(150, 200, 235), bottom: RGB(60, 110, 70)), shape: .star,
        subjectColor: RGB(240, 120, 20), centerX: 0.5, centerY: 0.5, radius: 0.35, seed: 5
    )

    private func importing(_ files: [String: [UInt8]], predictor: any MaskPredictor, in directory: URL) async throws -> (any CatalogStore, ImportSummary) {
        let folder = directory.appending(path: "photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: folder.appending(path: name)) }
        let repository = try SQLiteCatalogStore(url: directory.appending(path: "catalog.sqlite"), access: .readWrite)
        let importer = Importer(repository: repository, options: ImportOptions(jobs: 2, predictor: predictor))
        let summary = try await importer.run([folder.path]) { _ in }
        return (repository, summary)
    }

    @Test func storesACutOutStickerWithItsVersionAndSettings() async throws {
        try await withTemporaryDirectory { directory in
            // Large enough for a full-size sticker: the star is more than 256 pixels across.
            var scene = Self.scene
            (scene.width, scene.height) = (640, 480)
            let jpeg = try SamplePhotos.jpeg(scene, exif: nil, quality: 92)
            let (repository, summary) = try await importing(["star.jpg": jpeg], predictor: SceneTruth(scene: scene), in: directory)
            #expect(summary.imported == 1 && summary.failed == 0)
            let sticker = try #require(try await repository.entry(id: 1)?.sticker)
            #expect(sticker.pipelineVersion == PhotoProcessor.pipelineVersion)
            #expect(sticker.settings == .default)

            let image = try await PNGCodec.decode(try #require(try repository.stickerPNG(id: 1)), maxPixels: 1_000_000)
            #expect((image.width, image.height) == (sticker.width, sticker.height))
            #expect(max(image.width, image.height) == 512)
            // Transparent around the subject, opaque orange inside, and cropped to it: opaque pixels
            // reach within the padding of every side.
            #expect(image.pixel(x: 0, y: 0).alpha == 0 && image.pixel(x: image.width - 1, y: image.height - 1).alpha == 0)
            let centre = image.pixel(x: image.width / 2, y: image.height / 2)
            #expect(centre.alpha == 255 && centre.red > 200 && centre.blue < 80, "\(centre)")
            var minX = image.width, maxX = -1, minY = image.height, maxY = -1
            for y in 0..<image.height {
                for x in 0..<image.width where image.pixel(x: x, y: y).alpha > 128 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
            let margin = StickerSettings.default.style.padding + 3
            #expect(minX <= margin && minY <= margin && maxX >= image.width - 1 - margin && maxY >= image.height - 1 - margin,
                    "opaque box \(minX)...\(maxX) x \(minY)...\(maxY) in \(image.width)x\(image.height)")
        }
    }

    @Test func transparentPNGKeepsItsAlpha() async throws {
        try await withTemporaryDirectory { directory in
            var scene = Self.scene
            scene.width = 360
            let png = try SamplePhotos.transparentPNG(scene)
            let (repository, summary) = try await importing(["cut.png": png], predictor: SceneTruth(scene: Self.scene), in: directory)
            #expect(summary.imported == 1)
            let stored = try await PNGCodec.decode(try #require(try repository.stickerPNG(id: 1)), maxPixels: 1_000_000)
            let expected = try StickerRenderer.render(try PNGCodec.decode(png, maxPixels: 1_000_000), style: StickerSettings.default.style)
            #expect(stored == expected, "the PNG's own alpha, cropped and outlined, not a predicted mask")
        }
    }

    @Test func aPhotoWithNoSubjectIsAFailedEntry() async throws {
        try await withTemporaryDirectory { directory in
            let flat = SampleScene(width: 320, height: 240, background: .gradient(top: RGB(90, 90, 90), bottom: RGB(90, 90, 90)),
                                   shape: .ellipse, subjectColor: RGB(90, 90, 90), radius: 0)
            let jpeg = try SamplePhotos.jpeg(flat, exif: nil)
            let (repository, summary) = try await importing(["flat.jpg": jpeg], predictor: SceneTruth(scene: flat), in: directory)
            #expect(summary.failed == 1 && summary.imported == 0)
            let failure = try #require(try await repository.entry(id: 1)?.failure)
            #expect(failure.code == "no-subject")
        }
    }
}
