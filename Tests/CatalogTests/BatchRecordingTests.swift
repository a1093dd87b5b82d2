import Foundation
import GRDB
import Processing
import Testing

@testable import Catalog

/// `recordProcessed(batch:)` writes the rows one `recordProcessed` per entry writes (its own prepared
/// statements must not drift from the records), and handles duplicates and unreadable entries the same.
@Suite(.timeLimit(.minutes(15))) struct BatchRecordingTests {
    private func photo(_ index: Int) -> ProcessedPhoto {
        let exif = ExifMetadata(
            make: "Canon", model: "EOS R\(index)", lensModel: index % 2 == 0 ? "RF 50mm" : nil,
            takenAt: "2024-05-0\(1 + index % 9)T12:00:00+02:00", exposureTime: 0.01, fNumber: 2.8, iso: 100 * index,
            focalLength: 50, orientation: index % 2 == 0 ? 6 : 9, gpsLatitude: 48.1, gpsLongitude: .nan,
            gpsAltitude: nil, tags: ["Artist": "me \(index)"]
        )
        return ProcessedPhoto(
            format: .jpeg, width: 40 + index, height: 30, exif: index % 3 == 0 ? nil : exif,
            sticker: StickerImage(png: [0x89, 0x50, 0x4E, 0x47, UInt8(index)], width: 20, height: 15),
            palette: Palette(colors: (0..<(1 + index % 4)).map { rank in
                PaletteColor(hex: "#00000\(rank)", l: 0.1 * Double(rank), a: 0.01 * Double(index), b: -0.02, share: 1 / Double(1 + index % 4))
            }),
            pipelineVersion: 1, settings: .default,
            signature: index % 4 == 0 ? nil : SimilaritySignature(
                photo: PerceptualHash(bits: UInt64(index) &* 0x9E37_79B9_7F4A_7C15), surroundings: PerceptualHash(bits: ~UInt64(index)),
                subject: PerceptualHash(bits: UInt64(index) << 60), sharpness: Double(index), color: OklabColor(l: 0.5, a: 0, b: -0.1))
        )
    }

    /// Every table's rows, without the write times.
    private func rows(_ url: URL) throws -> [String: [[DatabaseValue]]] {
        let queue = try DatabaseQueue(path: url.path)
        let tables = [
            "photo": "SELECT id, sha256, path, file_size, file_mtime, format, width, height, status, failure_code, failure_message FROM photo ORDER BY id",
            "exif": "SELECT * FROM exif ORDER BY photo_id",
            "sticker": "SELECT photo_id, width, height, bytes, pipeline_version, settings_json FROM sticker ORDER BY photo_id",
            "sticker_png": "SELECT * FROM sticker_png ORDER BY photo_id",
            "palette_color": "SELECT * FROM palette_color ORDER BY id",
            "palette_index": "SELECT * FROM palette_index ORDER BY id",
            "similarity": "SELECT * FROM similarity ORDER BY photo_id",
        ]
        return try queue.read { db in
            try tables.mapValues { sql in try Row.fetchAll(db, sql: sql).map { Array($0.databaseValues) } }
        }
    }

    @Test func batchWritesWhatSingleRecordsWrite() async throws {
        try await withTemporaryDirectory { directory in
            let single = try SQLiteCatalogStore(url: directory.appending(path: "single.sqlite"), access: .readWrite)
            let batched = try SQLiteCatalogStore(url: directory.appending(path: "batch.sqlite"), access: .readWrite)
            for repository in [single, batched] {
                // An unreadable file, read at last in the batch: its failed entry is replaced.
                _ = try await repository.recordFailure(sha256: nil, source: source("/3"), format: nil, code: "unreadable", message: "gone")
            }
            // Entry 5 comes twice (a duplicate at another path), in the same batch.
            let entries = (0..<8).map { ProcessedEntry(photo: photo($0), sha256: sha($0), source: source("/\($0)")) }
                + [ProcessedEntry(photo: photo(5), sha256: sha(5), source: source("/copy-of-5"))]
            var expected: [ImportOutcome] = []
            for entry in entries {
                expected.append(try await single.recordProcessed(entry.photo, sha256: entry.sha256, source: entry.source))
            }
            let outcomes = try await batched.recordProcessed(batch: entries)
            #expect(outcomes == expected)
            #expect(try rows(directory.appending(path: "batch.sqlite")) == rows(directory.appending(path: "single.sqlite")))
        }
    }
}
