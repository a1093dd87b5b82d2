import Foundation
import Processing
import SampleImages
import Testing

@testable import Catalog

/// `catalog import` of animated images: an APNG and an animated WebP (made here, frame by frame)
/// become animated entries with their timing, their first frame as the still sticker; a damaged one
/// fails with a clear error and the rest of the import goes on.
@Suite(.timeLimit(.minutes(15))) struct AnimatedImportTests {
    /// Eight frames of an orange star sliding over a gradient, 100 ms each.
    static func frames() -> [RGBAImage] {
        (0..<8).map { index in
            SampleScene(width: 320, height: 240, background: .gradient(top: RGB(150, 200, 235), bottom: RGB(60, 110, 70)), shape: .star,
                        subjectColor: RGB(240, 120, 20), centerX: 0.4 + 0.025 * Double(index), radius: 0.3, seed: 5).renderPhoto()
        }
    }

    @Test func animatedImagesBecomeAnimatedEntries() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appending(path: "clips")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let frames = Self.frames()
            let durations = [Int](repeating: 100, count: frames.count)
            let apng = try APNGEncoder.encode(frames, durations: durations)
            try Data(apng).write(to: folder.appending(path: "star.png"))
            try Data(try WebPCodec.encodeAnimation(frames, durations: durations, mode: .lossless)).write(to: folder.appending(path: "star.webp"))
            try Data(apng.prefix(apng.count / 2)).write(to: folder.appending(path: "cut.png"))
            let repository = try SQLiteCatalogStore(url: directory.appending(path: "catalog.sqlite"), access: .readWrite)
            let importer = Importer(repository: repository, options: ImportOptions(jobs: 1, predictor: CentredEllipsePredictor()))
            let summary = try await importer.run([folder.path]) { _ in }
            #expect(summary.imported == 2 && summary.failed == 1, "\(summary)")

            for entry in try repository.entries(.all) {
                let detail = try #require(try repository.entry(id: entry.id))
                if entry.path.hasSuffix("cut.png") {
                    #expect(detail.status == .failed)
                    #expect(detail.failure?.code == "truncated", "\(String(describing: detail.failure))")
                    continue
                }
                #expect(detail.format == (entry.path.hasSuffix(".png") ? "apng" : "webp"))
                let sticker = try #require(detail.sticker)
                #expect(sticker.animation == EntryDetail.Animation(frames: 8, durationMs: 800))
                let animation = try #require(try repository.animation(id: entry.id))
                #expect(animation.frameCount == 8 && animation.durationMilliseconds == 800)
                // The still sticker is the first frame, of the animation's size.
                let still = try PNGCodec.decode(try #require(try repository.stickerPNG(id: entry.id)), maxPixels: 1 << 22)
                #expect((still.width, still.height) == (sticker.width, sticker.height))
                let decoded = try AnimationDecoder.decode(animation.webp)
                #expect(decoded.frames.count == 8)
                #expect((decoded.width, decoded.height) == (still.width, still.height))
                #expect(!detail.palette.isEmpty)
            }
            // The detail's picture of the source is its first frame.
            let preview = try await SourcePreview.jpeg(path: folder.appending(path: "star.png").path, longSide: 160)
            let shown = try PhotoDecoder.decode(preview, options: DecodeOptions()).image
            #expect((shown.width, shown.height) == (160, 120))
            // A clip takes a box on its first frame; points, and a box outside the frame, are refused.
            let boxed = await PhotoProcessor(predictor: CentredEllipsePredictor()).attempt(
                apng, guidance: CutoutGuidance(box: CutoutGuidance.Box(x: 0, y: 0, width: 100, height: 100)))
            #expect((try? boxed.result.get())?.animation != nil, "a boxed clip: \(boxed.result)")
            let outside = await PhotoProcessor(predictor: CentredEllipsePredictor()).attempt(
                apng, guidance: CutoutGuidance(box: CutoutGuidance.Box(x: 0, y: 0, width: 5000, height: 100)))
            let pointed = await PhotoProcessor(predictor: CentredEllipsePredictor()).attempt(
                apng, guidance: CutoutGuidance(include: [CutoutGuidance.Point(x: 10, y: 10)]))
            for guided in [outside, pointed] {
                guard case .failure(.invalidGuidance) = guided.result else {
                    Issue.record("wrong guidance on a clip: \(guided.result)")
                    return
                }
            }
        }
    }
}
