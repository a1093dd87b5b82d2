import Foundation
import GRDB
import Processing
import Testing

@testable import Catalog

/// `search`: the R*Tree candidates, the share-weighted ranking, several colours, EXIF filters, and the
/// index kept in step with `palette_color` by its triggers.
@Suite(.timeLimit(.minutes(15))) struct ColorSearchTests {
    /// A processed photo whose palette is `colors` (hex, share), with optional EXIF.
    private func photo(_ colors: [(String, Double)], exif: ExifMetadata? = nil) -> ProcessedPhoto {
        ProcessedPhoto(
            format: .png, width: 10, height: 10, exif: exif,
            sticker: StickerImage(png: [0x89, 0x50, 0x4E, 0x47], width: 10, height: 10),
            palette: Palette(colors: colors.map { hex, share in
                let lab = ColorName.parse(hex)!.oklab
                return PaletteColor(hex: hex, l: lab.l, a: lab.a, b: lab.b, share: share)
            }),
            pipelineVersion: 0, settings: .default
        )
    }

    private func exif(make: String, model: String, taken: String) -> ExifMetadata {
        ExifMetadata(
            make: make, model: model, lensModel: nil, takenAt: taken, exposureTime: nil, fNumber: nil, iso: nil,
            focalLength: nil, orientation: nil, gpsLatitude: nil, gpsLongitude: nil, gpsAltitude: nil, tags: [:]
        )
    }

    private func query(_ colors: String..., within: Double = ColorQuery.defaultWithin, limit: Int = 20) -> ColorQuery {
        ColorQuery(colors: colors.map { ColorName.parse($0)!.oklab }, within: within, limit: limit)
    }

    @Test(arguments: StoreKind.allCases) func mostlyOrangeComesBeforeAnOrangeSpeck(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            // 1: an orange speck on blue; 2: mostly orange, a little off; 3: no orange at all.
            _ = try await repository.recordProcessed(photo([("#0000ff", 0.95), ("#ff8800", 0.05)]), sha256: sha(1), source: source("/speck"))
            _ = try await repository.recordProcessed(photo([("#f08a10", 0.8), ("#ffffff", 0.2)]), sha256: sha(2), source: source("/mostly"))
            _ = try await repository.recordProcessed(photo([("#008080", 1)]), sha256: sha(3), source: source("/teal"))
            let results = try await repository.search(query("#ff8800"))
            #expect(results.map(\.id) == [2, 1])
            #expect(results[0].path == "/mostly")
            #expect(results[0].matches[0].hex == "#f08a10")
            #expect(results[0].matches[0].share == 0.8)
            #expect(results[0].matches[0].distance > 0 && results[0].matches[0].distance < 5)
            #expect(abs(results[1].matches[0].distance) < 1e-6)
            #expect(try await repository.search(query("teal")).map(\.id) == [3])
            #expect(try await repository.search(query("#ff8800", limit: 1)).map(\.id) == [2])
        }
    }

    @Test(arguments: StoreKind.allCases) func everyColourMustMatch(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            _ = try await repository.recordProcessed(photo([("#ff8800", 0.6), ("#0044cc", 0.4)]), sha256: sha(1), source: source("/both"))
            _ = try await repository.recordProcessed(photo([("#ff8800", 1)]), sha256: sha(2), source: source("/orange"))
            _ = try await repository.recordProcessed(photo([("#0044cc", 0.9), ("#ff8800", 0.1)]), sha256: sha(3), source: source("/blue"))
            let both = try await repository.search(query("#ff8800", "#0044cc"))
            // The score is the weakest colour's: 0.4 for entry 1, 0.1 for entry 3.
            #expect(both.map(\.id) == [1, 3])
            #expect(both[0].matches.map(\.hex) == ["#ff8800", "#0044cc"])
            #expect(both[0].deciding.hex == "#0044cc")
            #expect(try await repository.search(query("#0044cc", "#ff8800")).map(\.id) == [1, 3])
            #expect(try await repository.search(query("#ff8800", "#00ff00")).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases) func withinIsTheThreshold(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            _ = try await repository.recordProcessed(photo([("#cc8400", 1)]), sha256: sha(1), source: source("/dark"))
            // orange #ffa500 to #cc8400 is ΔE 12.4.
            #expect(try await repository.search(query("orange", within: 12)).isEmpty)
            #expect(try await repository.search(query("orange", within: 13)).map(\.id) == [1])
        }
    }

    @Test(arguments: StoreKind.allCases) func exifFilters(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            _ = try await repository.recordProcessed(
                photo([("#ff8800", 1)], exif: exif(make: "Canon", model: "EOS R5", taken: "2024-05-01T12:00:00+02:00")),
                sha256: sha(1), source: source("/canon"))
            _ = try await repository.recordProcessed(
                photo([("#ff8800", 0.9)], exif: exif(make: "FUJIFILM", model: "X100V", taken: "2025-01-02T08:00:00")),
                sha256: sha(2), source: source("/fuji"))
            _ = try await repository.recordProcessed(photo([("#ff8800", 0.8)]), sha256: sha(3), source: source("/none"))
            var q = query("#ff8800")
            q.camera = "eos r"
            #expect(try await repository.search(q).map(\.id) == [1])
            q.camera = "fuji"
            #expect(try await repository.search(q).map(\.id) == [2])
            q.camera = "%"
            #expect(try await repository.search(q).isEmpty, "LIKE wildcards in the text are literal")
            q.camera = nil
            q.takenAfter = "2025-01-01"
            #expect(try await repository.search(q).map(\.id) == [2])
            q.takenAfter = nil
            q.takenBefore = "2024-05-01T10:00:01"
            #expect(try await repository.search(q).map(\.id) == [1], "12:00+02:00 is 10:00 UTC")
            q.takenBefore = "2024-05-01T10:00:00"
            #expect(try await repository.search(q).isEmpty)
        }
    }

    /// The R*Tree follows palette_color through inserts, cascading deletes and updates.
    @Test func indexFollowsThePaletteTable() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let repository = try SQLiteCatalogStore(url: url, access: .readWrite)
            _ = try await repository.recordProcessed(photo([("#ff8800", 0.7), ("#0044cc", 0.3)]), sha256: sha(1), source: source("/1"))
            _ = try await repository.recordProcessed(photo([("#ff8800", 1)]), sha256: sha(2), source: source("/2"))
            let queue = try DatabaseQueue(path: url.path)
            func indexed() throws -> [[Int64]] {
                try queue.read { db in
                    try Row.fetchAll(db, sql: "SELECT id, photo_id FROM palette_index ORDER BY id").map { [$0[0], $0[1]] }
                }
            }
            #expect(try indexed() == [[1, 1], [2, 1], [3, 2]])
            try await queue.write { db in try db.execute(sql: "DELETE FROM photo WHERE id = 1") }
            #expect(try indexed() == [[3, 2]])
            #expect(try repository.search(query("#ff8800")).map(\.id) == [2])
            try await queue.write { db in
                // What a reprocess does: replace the palette rows.
                try db.execute(sql: "DELETE FROM palette_color WHERE photo_id = 2")
                try db.execute(sql: "INSERT INTO palette_color (photo_id, rank, hex, l, a, b, share) VALUES (2, 0, '#008080', ?, ?, ?, 1)",
                               arguments: [ColorName.parse("teal")!.oklab.l, ColorName.parse("teal")!.oklab.a, ColorName.parse("teal")!.oklab.b])
            }
            #expect(try repository.search(query("#ff8800")).isEmpty)
            #expect(try repository.search(query("teal")).map(\.id) == [2])
            try await queue.write { db in try db.execute(sql: "UPDATE palette_color SET share = 0.5 WHERE photo_id = 2") }
            let share = try await queue.read { db in try Double.fetchOne(db, sql: "SELECT share_max FROM palette_index") }
            #expect(share == 0.5)
        }
    }

    /// Palettes that existed before the index was added are indexed by the migration.
    @Test func migrationIndexesExistingPalettes() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let repository = try SQLiteCatalogStore(url: url, access: .readWrite)
            _ = try await repository.recordProcessed(photo([("#ff8800", 1)]), sha256: sha(1), source: source("/1"))
            let queue = try DatabaseQueue(path: url.path)
            try await queue.write { db in
                // Back to schema 0001, which had palette rows and no index.
                try db.execute(sql: "DROP TABLE palette_index")
                for name in ["insert", "delete", "update"] { try db.execute(sql: "DROP TRIGGER palette_index_\(name)") }
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = '0002_palette_index'")
            }
            let reopened = try SQLiteCatalogStore(url: url, access: .readWrite)
            #expect(try reopened.search(query("#ff8800")).map(\.id) == [1])
        }
    }

    /// On many random palettes, the indexed search returns what reading every colour returns.
    @Test(arguments: StoreKind.allCases) func indexedSearchEqualsTheFullScan(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            var seed: UInt64 = 42
            func next() -> Double {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Double(seed >> 11) / Double(1 << 53)
            }
            var batch: [ProcessedEntry] = []
            for index in 0..<2000 {
                let count = 1 + Int(next() * 5)
                var shares = (0..<count).map { _ in next() + 0.01 }
                let total = shares.reduce(0, +)
                shares = shares.map { $0 / total }.sorted(by: >)
                let colors = shares.map { share in
                    (SRGBColor(red: UInt8(next() * 255), green: UInt8(next() * 255), blue: UInt8(next() * 255)).hex, share)
                }
                let taken = String(format: "2024-%02d-15T12:00:00Z", 1 + index % 12)
                batch.append(ProcessedEntry(
                    photo: photo(colors, exif: exif(make: index % 3 == 0 ? "Canon" : "Nikon", model: "Z", taken: taken)),
                    sha256: sha(index), source: source("/\(index)")))
            }
            _ = try await repository.recordProcessed(batch: batch)
            for (colors, within, camera) in [(["orange"], 12.0, nil), (["teal"], 20.0, "canon"), (["#336699", "#eeeeee"], 25.0, nil), (["red"], 5.0, nil)] {
                var q = ColorQuery(colors: colors.map { ColorName.parse($0)!.oklab }, within: within, limit: 15, camera: camera)
                if camera != nil { q.takenAfter = "2024-06" }
                let indexed = try await repository.search(q)
                let scanned = try await repository.searchByFullScan(q)
                #expect(!scanned.isEmpty)
                #expect(indexed.map(\.id) == scanned.map(\.id), "\(colors)")
                for (a, b) in zip(indexed, scanned) {
                    #expect(abs(a.score - b.score) < 1e-9)
                    #expect(a.matches.map(\.hex) == b.matches.map(\.hex))
                }
            }
        }
    }

    /// Each path of the best-first search gives what the full scan gives: one colour, several colours
    /// driven by the rarest one (in either order, three at once), the camera filter on the stream, a
    /// wide date window (stream) and a narrow one (the photos it lets through, scored one by one).
    @Test(arguments: StoreKind.allCases) func everySearchPathEqualsTheFullScan(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            var seed: UInt64 = 7
            func next() -> Double {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Double(seed >> 11) / Double(1 << 53)
            }
            var batch: [ProcessedEntry] = []
            for index in 0..<3000 {
                var shares = (0..<5).map { _ in next() + 0.02 }
                let total = shares.reduce(0, +)
                shares = shares.map { $0 / total }.sorted(by: >)
                // Orange-ish colours are common, navy rare: the second colour must drive "orange + navy".
                let colors = shares.enumerated().map { rank, share in
                    let hex = rank == 0 && index % 4 == 0 ? "#ff9900"
                        : SRGBColor(red: UInt8(next() * 255), green: UInt8(next() * 255), blue: UInt8(next() * 255)).hex
                    return (hex, share)
                }
                let taken = String(format: "%04d-%02d-%02dT12:00:00Z", 2020 + index % 6, 1 + index % 12, 1 + index % 28)
                batch.append(ProcessedEntry(
                    photo: photo(colors, exif: exif(make: ["Canon", "Nikon", "Fujifilm"][index % 3], model: "X", taken: taken)),
                    sha256: sha(index), source: source("/\(index)")))
            }
            _ = try await repository.recordProcessed(batch: batch)
            let cases: [(colors: [String], camera: String?, after: String?, before: String?)] = [
                (["orange"], nil, nil, nil),
                (["orange", "navy"], nil, nil, nil),
                (["navy", "orange"], nil, nil, nil),
                (["orange", "navy", "grey"], nil, nil, nil),
                (["orange"], "canon", nil, nil),
                (["orange"], "canon", "2022-01-01", nil),
                (["orange"], "canon", "2024-01-01", nil),
                (["orange", "teal"], nil, "2021-03-01", "2021-03-08"),
                (["grey"], "nikon", "2023-05-01", "2023-05-03"),
            ]
            for test in cases {
                for limit in [1, 7, 40] {
                    let q = ColorQuery(
                        colors: test.colors.map { ColorName.parse($0)!.oklab }, within: 15, limit: limit,
                        camera: test.camera, takenAfter: test.after, takenBefore: test.before)
                    let indexed = try await repository.search(q)
                    let scanned = try await repository.searchByFullScan(q)
                    #expect(indexed.map(\.id) == scanned.map(\.id), "\(test) limit \(limit)")
                    #expect(zip(indexed, scanned).allSatisfy { abs($0.score - $1.score) < 1e-9 && $0.matches.map(\.hex) == $1.matches.map(\.hex) })
                }
            }
        }
    }

    /// Several colours in the corners of the best-first search: palettes drawn from a few colours and
    /// shares (so many scores tie exactly and ids decide), two palette colours near the same query
    /// colour, the same colour asked twice, limits beyond every match (the index read to its end),
    /// a camera filter, and a wide threshold.
    @Test(arguments: StoreKind.allCases) func severalColoursEqualTheFullScan(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await openStore(kind, in: directory)
            var seed: UInt64 = 11
            func next() -> Double {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Double(seed >> 11) / Double(1 << 53)
            }
            let hexes = ["#ff9900", "#ffa500", "#f08000", "#000080", "#101070", "#808080", "#20b2aa", "#ffffff"]
            let shares = [0.5, 0.25, 0.125, 0.0625]
            var batch: [ProcessedEntry] = []
            for index in 0..<2500 {
                let count = 1 + Int(next() * 4)
                let colors = (0..<count).map { rank in (hexes[Int(next() * Double(hexes.count))], shares[rank]) }
                batch.append(ProcessedEntry(
                    photo: photo(colors, exif: exif(make: index % 2 == 0 ? "Canon" : "Nikon", model: "R", taken: "2024-05-05T10:00:00Z")),
                    sha256: sha(index), source: source("/\(index)")))
            }
            _ = try await repository.recordProcessed(batch: batch)
            let cases: [(colors: [String], within: Double, camera: String?)] = [
                (["orange", "navy"], 12, nil),
                (["navy", "orange"], 12, nil),
                (["orange", "orange"], 12, nil),
                (["orange", "navy", "grey"], 15, nil),
                (["orange", "navy"], 12, "canon"),
                (["orange", "lightseagreen"], 40, nil),
                (["red", "navy"], 3, nil),
            ]
            for test in cases {
                for limit in [1, 20, 3000] {
                    var q = ColorQuery(colors: test.colors.map { ColorName.parse($0)!.oklab }, within: test.within, limit: limit)
                    q.camera = test.camera
                    let indexed = try await repository.search(q)
                    let scanned = try await repository.searchByFullScan(q)
                    #expect(indexed.map(\.id) == scanned.map(\.id), "\(test) limit \(limit)")
                    #expect(zip(indexed, scanned).allSatisfy { abs($0.score - $1.score) < 1e-9 && $0.matches.map(\.hex) == $1.matches.map(\.hex) })
                }
            }
        }
    }
}
