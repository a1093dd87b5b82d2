import Foundation
import GRDB
import Processing
import Testing

@testable import Catalog

/// Recording entries and reading them back.
@Suite(.timeLimit(.minutes(15))) struct CatalogRecordingTests {
    @Test func recordsAndReadsBackAFullEntry() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "catalog.sqlite")
            let repository = try SQLiteCatalogStore(url: url, access: .readWrite)
            let outcome = try await repository.recordProcessed(
                sampleProcessedPhoto(), sha256: sha(0xC0FFEE), source: source("/photos/cat.jpg"))
            #expect(outcome == .imported(id: 1))

            let detail = try #require(try repository.entry(id: 1))
            let json = try sortedJSON(detail)
            let expected = #"""
                {"clip":null,"exif":{"exposureTime":0.004,"fNumber":4,"focalLength":50,"gpsAltitude":35.5,"gpsLatitude":48.8584,\#
                "gpsLongitude":-2.2945,"iso":200,"lensModel":"RF24-105mm F4 L IS USM","make":"Canon","model":"EOS R5",\#
                "orientation":6,"takenAt":"2024-05-01T12:34:56+02:00"},"failure":null,"format":"jpeg","guidance":null,"height":3000,\#
                "id":1,"livePhoto":null,"palette":[{"hex":"#ff8800","share":0.5},{"hex":"#0044cc","share":0.25}],\#
                "path":"\/photos\/cat.jpg","sha256":"0000000000000000000000000000000000000000000000000000000000c0ffee",\#
                "status":"ok","sticker":{"bytes":8,"height":384,"pipelineVersion":4,\#
                "settings":{"model":"u2net","outline":8,"paletteColors":2,"precision":"fp32","shadow":false,"size":512},"width":512},"width":4000}
                """#
            #expect(json == expected)

            #expect(detail.allTags == sampleExif.tags)
            #expect(detail.exif == sampleExif)
            #expect(detail.fileSize == 1234)
            #expect(detail.modificationTime == 1_714_559_696)
            #expect(detail.importedAt.hasSuffix("Z") && detail.importedAt == detail.updatedAt)
            #expect(detail.palette.map(\.l) == [0.75, 0.4])
            #expect(try repository.stickerPNG(id: 1) == sampleProcessedPhoto().sticker.png)
            #expect(try repository.stickerPNG(id: 2) == nil)
            #expect(try repository.entry(id: 2) == nil)

            // What the columns hold: UTC date taken, sorted-keys JSON, palette ranks.
            let queue = try DatabaseQueue(path: url.path)
            let (exif, settings, ranks) = try queue.read { db in
                (
                    try Row.fetchOne(db, sql: "SELECT taken_at_utc, tags_json FROM exif WHERE photo_id = 1"),
                    try String.fetchOne(db, sql: "SELECT settings_json FROM sticker"),
                    try Int.fetchAll(db, sql: "SELECT rank FROM palette_color ORDER BY share DESC")
                )
            }
            #expect(exif?["taken_at_utc"] == "2024-05-01T10:34:56Z")
            #expect(exif?["tags_json"] == #"{"0.Make":"Canon","0.Model":"EOS R5","EXIF.ISOSpeedRatings":"200"}"#)
            #expect(settings == #"{"model":"u2net","outline":8,"paletteColors":2,"precision":"fp32","shadow":false,"size":512}"#)
            #expect(ranks == [0, 1])
        }
    }

    @Test(arguments: StoreKind.allCases) func entryWithoutExifHasAnExifObjectOfNulls(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            _ = try await repository.recordProcessed(
                sampleProcessedPhoto(exif: nil), sha256: sha(1), source: source("/p.png"))
            let json = try await sortedJSON(try #require(try repository.entry(id: 1)))
            #expect(json.contains(#""exif":{"exposureTime":null,"fNumber":null,"focalLength":null,"gpsAltitude":null,"#
                + #""gpsLatitude":null,"gpsLongitude":null,"iso":null,"lensModel":null,"make":null,"model":null,"#
                + #""orientation":null,"takenAt":null}"#))
            #expect(try await repository.entry(id: 1)?.allTags == [:])
        }
    }

    @Test(arguments: StoreKind.allCases) func damagedExifValuesAreStoredAsNull(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            var exif = sampleExif
            exif.orientation = 9
            exif.gpsLatitude = 123
            exif.gpsLongitude = .nan
            exif.exposureTime = .infinity
            _ = try await repository.recordProcessed(sampleProcessedPhoto(exif: exif), sha256: sha(1), source: source("/p"))
            let stored = try #require(try await repository.entry(id: 1)?.exif)
            #expect(stored.orientation == nil && stored.gpsLatitude == nil && stored.gpsLongitude == nil)
            #expect(stored.exposureTime == nil && stored.make == "Canon")
        }
    }

    @Test(arguments: StoreKind.allCases) func sameBytesAgainIsADuplicateAndAMoveUpdatesThePath(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            let photo = sampleProcessedPhoto()
            #expect(try await repository.recordProcessed(photo, sha256: sha(7), source: source("/a/x.jpg"))
                == .imported(id: 1))
            let first = try #require(try await repository.entry(id: 1))

            // Same place, same file: nothing changes.
            #expect(try await repository.recordProcessed(photo, sha256: sha(7), source: source("/a/x.jpg"))
                == .duplicate(id: 1, pathUpdated: false))
            #expect(try await repository.entry(id: 1)?.updatedAt == first.updatedAt)

            // Moved: the path follows the bytes.
            #expect(try await repository.recordProcessed(photo, sha256: sha(7), source: source("/b/y.jpg"))
                == .duplicate(id: 1, pathUpdated: true))
            #expect(try await repository.existingEntry(sha256: sha(7))
                == ExistingEntry(id: 1, path: "/b/y.jpg", status: .ok, fileSize: 1234, modificationTime: 1_714_559_696))

            // Touched in place: size and time refreshed, path unchanged.
            #expect(try await repository.noteDuplicate(id: 1, source: source("/b/y.jpg", modificationTime: 1_800_000_000))
                == .duplicate(id: 1, pathUpdated: false))
            #expect(try await repository.existingEntry(sha256: sha(7))?.modificationTime == 1_800_000_000)

            #expect(try await repository.entries(.all).count == 1)
            #expect(try await repository.existingEntry(sha256: sha(8)) == nil)
            let error = await catalogError { try await repository.noteDuplicate(id: 99, source: source("/z")) }
            #expect(error == .entryNotFound(id: 99))
        }
    }

    @Test func failedEntries() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let repository = try SQLiteCatalogStore(url: url, access: .readWrite)
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(1), source: source("/ok.jpg"))

            // Hashed failure.
            #expect(try await repository.recordFailure(
                sha256: sha(2), source: source("/bad.jpg"), format: .jpeg,
                code: "corrupt-image", message: "corrupt image: bad Huffman table") == .failed(id: 2))
            // The same bytes failing again elsewhere: a duplicate, not a second entry.
            #expect(try await repository.recordFailure(
                sha256: sha(2), source: source("/copy/bad.jpg"), format: .jpeg,
                code: "corrupt-image", message: "corrupt image: bad Huffman table") == .duplicate(id: 2, pathUpdated: true))

            // Unreadable: no hash, keyed by path, updated in place.
            #expect(try await repository.recordFailure(
                sha256: nil, source: source("/locked.jpg"), format: nil,
                code: "unreadable", message: "Permission denied") == .failed(id: 3))
            #expect(try await repository.recordFailure(
                sha256: nil, source: source("/locked.jpg", size: 99), format: nil,
                code: "unreadable", message: "Input/output error") == .failed(id: 3))

            let failed = try repository.entries(.failed)
            #expect(failed.map(\.id) == [2, 3])
            #expect(failed.map(\.failureCode) == ["corrupt-image", "unreadable"])
            #expect(failed.last?.failureMessage == "Input/output error")
            #expect(try repository.entries(.all).map(\.status) == [.ok, .failed, .failed])
            #expect(try sortedJSON(failed)
                == #"[{"id":2,"path":"\/copy\/bad.jpg","sha256":"\#(sha(2))","status":"failed"},"#
                + #"{"id":3,"path":"\/locked.jpg","sha256":null,"status":"failed"}]"#)

            let detail = try #require(try repository.entry(id: 3))
            let json = try sortedJSON(detail)
            #expect(json.contains(#""failure":{"code":"unreadable","message":"Input\/output error"},"format":null,"#
                + #""guidance":null,"height":null,"id":3,"#))
            #expect(json.hasSuffix(#""palette":[],"path":"\/locked.jpg","sha256":null,"status":"failed","sticker":null,"#
                + #""width":null}"#))
            #expect(detail.fileSize == 99)

            // Once readable, the file is hashed: its unreadable entry goes, and its id is not reused.
            #expect(try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(4), source: source("/locked.jpg"))
                == .imported(id: 4))
            #expect(try repository.entries(.all).map(\.id) == [1, 2, 4])
        }
    }

    @Test(arguments: StoreKind.allCases) func stats(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            let empty = try await repository.stats()
            #expect(empty.total == 0 && empty.stickerBytes == 0 && empty.failuresByCode.isEmpty)

            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(1), source: source("/1"))
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(2), source: source("/2"))
            _ = try await repository.recordFailure(
                sha256: sha(3), source: source("/3"), format: .gif, code: "unsupported-format", message: "GIF")
            _ = try await repository.recordFailure(
                sha256: nil, source: source("/4"), format: nil, code: "unreadable", message: "EIO")
            _ = try await repository.recordFailure(
                sha256: nil, source: source("/5"), format: nil, code: "unreadable", message: "EIO")

            var stats = try await repository.stats()
            #expect(stats.fileSize > 0)
            stats.fileSize = 0
            #expect(stats == CatalogStats(
                total: 5, ok: 2, failed: 3, failuresByCode: ["unsupported-format": 1, "unreadable": 2],
                stickersByPipelineVersion: [4: 2], stickerBytes: 16, paletteColors: 4, packs: 0, fileSize: 0,
                migrations: CatalogMigrations.identifiers))
            #expect(try sortedJSON(stats) == #"{"failed":3,"failuresByCode":{"unreadable":2,"unsupported-format":1},"#
                + #""fileSize":0,"migrations":["0001_initial","0002_palette_index","0003_decoder_version","0004_copy_and_work","0005_palette_cell","0006_palette_pack","0007_guidance","0008_similarity","0009_similarity_covering","0010_animation","0011_clip_window","0012_live_photo"],"ok":2,"packs":0,"paletteColors":4,"#
                + #""stickerBytes":16,"stickersByPipelineVersion":{"4":2},"total":5}"#)
        }
    }

    /// The schema's foreign keys are on: deleting a photo deletes what hangs from it, and orphans are refused.
    @Test func foreignKeysCascadeAndAreEnforced() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let repository = try SQLiteCatalogStore(url: url, access: .readWrite)
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(1), source: source("/1"))
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(2), source: source("/2"))

            let queue = try DatabaseQueue(path: url.path)
            func counts() throws -> [Int] {
                try queue.read { db in
                    try ["photo", "exif", "sticker", "sticker_png", "palette_color"].map {
                        try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? -1
                    }
                }
            }
            #expect(try counts() == [2, 2, 2, 2, 4])
            try await queue.write { db in try db.execute(sql: "DELETE FROM photo WHERE id = 1") }
            #expect(try counts() == [1, 1, 1, 1, 2])
            #expect(try repository.stickerPNG(id: 1) == nil)

            #expect(throws: DatabaseError.self) {
                try queue.write { db in
                    try db.execute(sql: """
                        INSERT INTO sticker (photo_id, width, height, bytes, pipeline_version, settings_json, created_at)
                        VALUES (42, 1, 1, 1, 1, '{}', 'now')
                        """)
                }
            }
        }
    }
}
