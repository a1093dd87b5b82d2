import Foundation
@testable import Processing
import SampleImages
import Testing

@testable import Catalog

/// The part of a clip an entry is cut from (`--clip`, `--max-frames`), on every back end: an import
/// stores it with the entry, a reprocess keeps it, a recut changes it or sets it back to the default, a
/// copy carries it; a still refuses one, and a part past the clip's end fails with `no-frames`.
@Suite(.timeLimit(.minutes(15))) struct ClipWindowStoreTests {
    /// Three seconds of an orange star sliding over a gradient: 30 frames of 100 ms.
    static func apng() throws -> [UInt8] {
        let frames = (0..<30).map { index in
            SampleSceneFrames.frame(index)
        }
        return try APNGEncoder.encode(frames, durations: [Int](repeating: 100, count: frames.count))
    }

    @Test(arguments: StoreKind.allCases)
    func theChosenPartStaysWithTheEntry(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appending(path: "clips")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(try Self.apng()).write(to: folder.appending(path: "star.png"))
            try Data(try PNGCodec.encode(SampleSceneFrames.frame(0))).write(to: folder.appending(path: "still.png"))
            let store = try await openStore(kind, in: directory)
            let oneSecond = ClipWindow(startSeconds: 1, durationSeconds: 1, maxFrames: 90)
            let importer = Importer(repository: store, options: ImportOptions(jobs: 1, predictor: CentredEllipsePredictor(), clip: oneSecond))
            let summary = try await importer.run([folder.path]) { _ in }
            #expect(summary.imported == 2, "\(summary)")
            let entries = try await store.entries(.all)
            let clipID = try #require(entries.first { $0.path.hasSuffix("star.png") }?.id)
            let stillID = try #require(entries.first { $0.path.hasSuffix("still.png") }?.id)

            var detail = try #require(try await store.entry(id: clipID))
            #expect(detail.clip == oneSecond)
            #expect(detail.sticker?.animation?.durationMs == 1000)
            // A still ignores the part on import.
            #expect(try await store.entry(id: stillID)?.clip == nil)

            // A reprocess of every entry cuts the same part again.
            let settings = StickerSettings.default
            let reprocessor = Reprocessor(
                repository: store, options: ReprocessOptions(jobs: 1, all: true, settings: settings, predictor: CentredEllipsePredictor()))
            _ = try await reprocessor.run(try await reprocessor.candidates()) { _ in }
            detail = try #require(try await store.entry(id: clipID))
            #expect(detail.clip == oneSecond)
            #expect(detail.sticker?.animation?.durationMs == 1000)

            // A recut changes it, keeping what it does not name.
            let recutter = Recutter(repository: store, settings: settings, predictor: CentredEllipsePredictor())
            detail = try await recutter.recut(id: clipID, change: GuidanceChange(clip: ClipChange(startSeconds: 0.5, durationSeconds: 2, maxFrames: 10)))
            #expect(detail.clip == ClipWindow(startSeconds: 0.5, durationSeconds: 2, maxFrames: 10))
            #expect(detail.sticker?.animation?.frames == 10)
            #expect(detail.sticker?.animation?.durationMs == 1000)

            // The copy carries it.
            let copy = try await openStore(.sqlite, in: directory, name: "copy")
            _ = try await CatalogCopier(source: store, target: copy).run { _ in }
            #expect(try await copy.entry(id: clipID)?.clip == detail.clip)
            #expect(try await CatalogChecksums.compute(of: copy) == CatalogChecksums.compute(of: store))

            // A part past the end fails with no-frames and leaves the entry as it was.
            let pastEnd = await #expect(throws: RecutError.self) {
                _ = try await recutter.recut(id: clipID, change: GuidanceChange(clip: ClipChange(startSeconds: 10)))
            }
            guard case .processingFailed(_, let error)? = pastEnd else {
                Issue.record("a part past the end: \(String(describing: pastEnd))")
                return
            }
            #expect(error.code == "no-frames")
            #expect(try await store.entry(id: clipID)?.clip == detail.clip)

            // `--clip default` goes back to the first 3 seconds, stored as NULL.
            detail = try await recutter.recut(id: clipID, change: GuidanceChange(clip: ClipChange(reset: true)))
            #expect(detail.clip == nil)
            #expect(detail.sticker?.animation?.durationMs == 3000)

            // A still has no part to choose.
            await #expect(throws: RecutError.notAClip(id: stillID)) {
                _ = try await recutter.recut(id: stillID, change: GuidanceChange(clip: ClipChange(maxFrames: 5)))
            }
        }
    }

    @Test func theStoredFormIsNullForTheDefault() throws {
        #expect(try ClipWindow.storedJSON(nil) == nil)
        #expect(try ClipWindow.storedJSON(.default) == nil)
        let text = try #require(try ClipWindow.storedJSON(ClipWindow(startSeconds: 2.5, durationSeconds: 3, maxFrames: 90)))
        #expect(text == #"{"durationSeconds":3,"maxFrames":90,"startSeconds":2.5}"#)
        #expect(try ClipWindow.stored(text) == ClipWindow(startSeconds: 2.5, durationSeconds: 3, maxFrames: 90))
        #expect(ClipChange(maxFrames: 90).applied(to: nil) == nil)
        #expect(ClipChange(durationSeconds: 2).applied(to: ClipWindow(startSeconds: 1, durationSeconds: 1, maxFrames: 5))
            == ClipWindow(startSeconds: 1, durationSeconds: 2, maxFrames: 5))
        #expect(ClipWindow.span(parsing: "2.5,3").map { [$0.start, $0.duration] } == [2.5, 3])
        #expect(ClipWindow.span(parsing: "2,0") == nil)
        #expect(ClipWindow.span(parsing: "-1,3") == nil)
        #expect(ClipWindow.span(parsing: "1e3,3") == nil)
        #expect(ClipWindow.span(parsing: "2") == nil)
    }
}

/// Frames of a star sliding over a gradient, as the animated import tests draw them.
enum SampleSceneFrames {
    static func frame(_ index: Int) -> RGBAImage {
        SampleScene(width: 320, height: 240, background: .gradient(top: RGB(150, 200, 235), bottom: RGB(60, 110, 70)), shape: .star,
                    subjectColor: RGB(240, 120, 20), centerX: 0.3 + 0.01 * Double(index), radius: 0.3, seed: 5).renderPhoto()
    }
}
