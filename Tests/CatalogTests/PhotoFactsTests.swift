import Foundation
import GRDB
import Processing
import SampleImages
import Testing

@testable import Catalog

/// A photo's facts (format, upright size, EXIF) are kept whatever becomes of its sticker, and entries
/// that an older binary could not decode become stale with reason `decoder`.
@Suite(.timeLimit(.minutes(15))) struct PhotoFactsTests {
    static let camera = ExifMetadata(make: "Sticker Labs", model: "Blank One", takenAt: "2026-03-01T10:00:00", orientation: 6)

    /// A flat photo (nothing to cut out) with EXIF, turned by its orientation tag.
    static func blankPhoto() throws -> [UInt8] {
        let flat = SampleScene(width: 320, height: 240, background: .gradient(top: RGB(90, 90, 90), bottom: RGB(90, 90, 90)),
                               shape: .ellipse, subjectColor: RGB(90, 90, 90), radius: 0)
        return try SamplePhotos.jpeg(flat, exif: camera)
    }

    /// The network's stand-in: finds nothing anywhere.
    struct NothingPredictor: MaskPredictor {
        func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
            LowResolutionMask(width: 8, height: 8, values: [Float](repeating: 0, count: 64))
        }
    }

    private func importing(_ name: String, _ bytes: [UInt8], in directory: URL) async throws -> (any CatalogStore, ImportSummary) {
        let folder = directory.appending(path: "photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: folder.appending(path: name))
        let repository = try SQLiteCatalogStore(url: directory.appending(path: "catalog.sqlite"), access: .readWrite)
        let importer = Importer(repository: repository, options: ImportOptions(jobs: 1, predictor: NothingPredictor()))
        let summary = try await importer.run([folder.path]) { _ in }
        return (repository, summary)
    }

    @Test func aBlankPhotoKeepsItsExifAndUprightSize() async throws {
        try await withTemporaryDirectory { directory in
            let (repository, summary) = try await importing("blank.jpg", try Self.blankPhoto(), in: directory)
            #expect(summary.failed == 1 && summary.imported == 0, "the failure and its code are unchanged")
            let entry = try #require(try await repository.entry(id: 1))
            #expect(entry.failure?.code == "no-subject")
            #expect(entry.format == "jpeg")
            #expect(entry.width == 320 && entry.height == 240, "upright: the stored pixels are turned, the scene is 320x240")
            #expect(entry.exif?.model == "Blank One")
            #expect(entry.exif?.takenAt == "2026-03-01T10:00:00")
            #expect(entry.sticker == nil && entry.palette.isEmpty)

            // Search by camera finds stickers, and this photo has none.
            let query = ColorQuery(colors: [OklabColor(l: 0.5, a: 0, b: 0)], within: 100, camera: "Blank One")
            #expect(try await repository.search(query).isEmpty)
        }
    }

    @Test func aReprocessThatFailsKeepsTheFactsToo() async throws {
        try await withTemporaryDirectory { directory in
            let (repository, _) = try await importing("blank.jpg", try Self.blankPhoto(), in: directory)
            let candidates = try await repository.reprocessCandidates(settings: .default, all: true)
            let reprocessor = Reprocessor(repository: repository, options: ReprocessOptions(jobs: 1, all: true, settings: .default, predictor: NothingPredictor()))
            _ = try await reprocessor.run(candidates) { _ in }
            let entry = try #require(try await repository.entry(id: 1))
            #expect(entry.failure?.code == "no-subject")
            #expect(entry.width == 320 && entry.height == 240)
            #expect(entry.exif?.make == "Sticker Labs")
        }
    }

    @Test func undecodableBytesHaveNoFacts() async throws {
        try await withTemporaryDirectory { directory in
            let (repository, _) = try await importing("junk.gif", Array("GIF89a and nothing else".utf8), in: directory)
            let entry = try #require(try await repository.entry(id: 1))
            #expect(entry.failure?.code == "unsupported-format")
            #expect(entry.format == "gif" && entry.width == nil && entry.height == nil && entry.exif == nil)
        }
    }

    @Test func anEntryAnOlderBinaryCouldNotDecodeIsStaleWithReasonDecoder() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let repository = try SQLiteCatalogStore(url: url, access: .readWrite)
            _ = try await repository.recordFailure(
                sha256: sha(1), source: source("/photos/a.heic"), format: .heif, code: "unsupported-format", message: "unsupported format: HEIF")
            _ = try await repository.recordFailure(
                sha256: sha(2), source: source("/photos/b.gif"), format: .gif, code: "unsupported-format", message: "unsupported format: GIF")
            // Recorded by this binary: nothing to retry.
            #expect(try await repository.reprocessCandidates(settings: .default, all: false).allSatisfy { !$0.reasons.contains(.decoder) })

            // As a binary before decoder version 2 left them (the column did not exist: NULL).
            let queue = try DatabaseQueue(path: url.path)
            try await queue.write { db in try db.execute(sql: "UPDATE photo SET decoder_version = NULL") }
            let stale = try await repository.reprocessCandidates(settings: .default, all: false)
            #expect(stale.map(\.reasons) == [[.decoder], [.decoder]])
            #expect(StaleReason.decoder.rawValue == "decoder")

            // A later binary with an even newer decoder set would look again.
            try await queue.write { db in try db.execute(sql: "UPDATE photo SET decoder_version = 2") }
            #expect(try repository.reprocessCandidates(settings: .default, all: false, pipelineVersion: PhotoProcessor.pipelineVersion, decoderVersion: 3).map(\.reasons) == [[.decoder], [.decoder]])
        }
    }
}
