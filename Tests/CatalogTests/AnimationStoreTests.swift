import Foundation
import Processing
import Testing

@testable import Catalog

/// Animated stickers in the store, on every back end: the moving sticker is written with its entry
/// (one at a time or in a batch), read back whole, shown in the entry's detail, replaced or dropped by
/// a reprocess with its sticker, carried by a copy and counted in the checksums.
@Suite(.timeLimit(.minutes(15))) struct AnimationStoreTests {
    static func animation(frames: Int = 3) throws -> AnimatedSticker {
        let images = (0..<frames).map { index in
            RGBAImage(width: 32, height: 24, red: UInt8(40 * index), green: 120, blue: 200, alpha: 255)
        }
        return try AnimatedSticker(frames: images, durations: [Int](repeating: 40, count: frames))
    }

    static func photo(_ animation: AnimatedSticker?) -> ProcessedPhoto {
        let base = sampleProcessedPhoto()
        return ProcessedPhoto(
            format: base.format, width: 640, height: 480, exif: nil, sticker: base.sticker, palette: base.palette,
            pipelineVersion: base.pipelineVersion, settings: base.settings, animation: animation)
    }

    @Test(arguments: StoreKind.allCases)
    func theMovingStickerGoesWithItsEntry(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let store = try await openStore(kind, in: directory)
            let animation = try Self.animation()
            _ = try await store.recordProcessed(Self.photo(animation), sha256: sha(1), source: source("/p/clip.mp4"))
            _ = try await store.recordProcessed(Self.photo(nil), sha256: sha(2), source: source("/p/still.jpg"))
            _ = try await store.recordProcessed(batch: [
                ProcessedEntry(photo: Self.photo(try Self.animation(frames: 5)), sha256: sha(3), source: source("/p/other.gif"))
            ])
            #expect(try await store.animation(id: 1) == animation)
            #expect(try await store.animation(id: 2) == nil)
            #expect(try await store.animation(id: 3)?.frameCount == 5)
            let detail = try #require(try await store.entry(id: 1)?.sticker)
            #expect(detail.animation == EntryDetail.Animation(frames: 3, durationMs: 120))
            #expect(detail.animation?.frameRate == 25)
            #expect(try await store.entry(id: 2)?.sticker?.animation == nil)

            let copy = try await openStore(.sqlite, in: directory, name: "copy")
            _ = try await CatalogCopier(source: store, target: copy).run { _ in }
            #expect(try await copy.animation(id: 1) == animation)
            #expect(try await copy.animation(id: 2) == nil)
            #expect(try await CatalogChecksums.compute(of: copy) == CatalogChecksums.compute(of: store))

            // A reprocess replaces the moving sticker with the sticker, and drops it when the new one is still.
            let longer = try Self.animation(frames: 4)
            #expect(try await store.rewrite(ReprocessStep(
                entryID: 1, expectedSHA256: sha(1), change: .replace(Self.photo(longer), sha256: sha(1), source: source("/p/clip.mp4")))) == .replaced)
            #expect(try await store.animation(id: 1) == longer)
            #expect(try await store.rewrite(ReprocessStep(
                entryID: 3, expectedSHA256: sha(3), change: .replace(Self.photo(nil), sha256: sha(3), source: source("/p/other.gif")))) == .replaced)
            #expect(try await store.animation(id: 3) == nil)
        }
    }
}
