import Foundation
import Processing
import SampleImages
import Testing

@testable import Catalog

/// Staleness rules and the reprocess workflow against a real catalog file (the CLI tests cover the rest).
@Suite(.timeLimit(.minutes(15))) struct ReprocessTests {
    private let settings = StickerSettings.default

    @Test func recordedReasons() {
        func reasons(version: Int = 2, _ stickerSettings: StickerSettings = .default, failure: String? = nil, sticker: Bool = true) -> [StaleReason] {
            StaleReason.recorded(
                sticker: sticker && failure == nil ? (version, stickerSettings) : nil, failureCode: failure,
                current: settings, pipelineVersion: 2
            )
        }
        #expect(reasons().isEmpty)
        #expect(reasons(version: 1) == [.pipeline])
        #expect(reasons(version: 3).isEmpty)  // made by a newer binary: not this one's to redo
        var other = settings
        other.outline = 0
        #expect(reasons(other) == [.settings])
        #expect(reasons(version: 0, other) == [.pipeline, .settings])
        for code in ["unsupported-format", "corrupt-image", "truncated", "no-subject"] {
            #expect(reasons(failure: code).isEmpty, "\(code) is a property of the bytes")
        }
        for code in ["unreadable", "too-large", "encoding-failed", "segmentation-unavailable", "invalid-model", "something-new"] {
            #expect(reasons(failure: code) == [.failed], "\(code) is retried")
        }
    }

    @Test(arguments: StoreKind.allCases) func anOlderPipelinesEntryIsStaleAndReplacedWhole(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            let photo = try #require(SamplePhotos.demo(width: 320, height: 240).first { $0.name.hasSuffix(".png") })
            let path = directory.appending(path: photo.name).path
            try Data(photo.bytes).write(to: URL(fileURLWithPath: path))
            let read = try SourceReader.read(path: path).get()
            // An entry as an older pipeline left it: EXIF, two palette colours, an 8-byte sticker.
            var old = sampleProcessedPhoto()
            old = ProcessedPhoto(
                format: .png, width: 320, height: 240, exif: old.exif, sticker: old.sticker, palette: old.palette,
                pipelineVersion: PhotoProcessor.pipelineVersion, settings: settings
            )
            let outcome = try await repository.recordProcessed(old, sha256: Importer.hexDigest(read.bytes), source: read.source)
            guard case .imported(let id) = outcome else { Issue.record("not imported: \(outcome)"); return }

            #expect(try await repository.reprocessCandidates(settings: settings, all: false).isEmpty)
            let candidates = try await repository.reprocessCandidates(settings: settings, all: false, pipelineVersion: PhotoProcessor.pipelineVersion + 1, decoderVersion: PhotoDecoder.decoderVersion)
            #expect(candidates.map(\.reasons) == [[.pipeline]])

            let reprocessor = Reprocessor(repository: repository, options: ReprocessOptions(jobs: 1, settings: settings, predictor: nil))  // the PNG has its own alpha
            let summary = try await reprocessor.run(candidates) { event in
                #expect(event == .reprocessed(id: id, path: path, reasons: [.pipeline]))
            }
            #expect(summary.reprocessed == 1 && summary.left == 0 && !summary.interrupted)
            let entry = try #require(try await repository.entry(id: id))
            #expect(entry.exif == nil)  // the PNG has none: the old EXIF row is gone
            #expect(entry.palette.count <= settings.paletteColors && entry.palette.map(\.hex) != old.palette.colors.map(\.hex))
            let png = try #require(try await repository.stickerPNG(id: id))
            #expect(png.count == entry.sticker?.bytes && png.count > 8)
        }
    }

    @Test(arguments: StoreKind.allCases) func nothingIsWrittenWhenTheEntryChangedMeanwhile(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(1), source: source("/photos/a.jpg"))
            let before = try await repository.entry(id: 1)
            let outcome = try await repository.replace(
                id: 1, expectedSHA256: sha(9), with: sampleProcessedPhoto(exif: nil), sha256: sha(2), source: source("/photos/a.jpg")
            )
            #expect(outcome == .changedMeanwhile)
            #expect(try await repository.entry(id: 1) == before)
            #expect(try await repository.refreshSource(id: 7, expectedSHA256: sha(1), source: source("/x")) == .changedMeanwhile)
        }
    }

    @Test(arguments: StoreKind.allCases) func newBytesAnotherEntryHasLeaveTheEntryAsItIs(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(1), source: source("/photos/a.jpg"))
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(2), source: source("/photos/b.jpg"))
            let before = try await repository.entry(id: 1)
            let outcome = try await repository.replace(
                id: 1, expectedSHA256: sha(1), with: sampleProcessedPhoto(exif: nil), sha256: sha(2), source: source("/photos/a.jpg")
            )
            #expect(outcome == .duplicate(of: 2, removed: false))
            #expect(try await repository.entry(id: 1) == before)
        }
    }
}
