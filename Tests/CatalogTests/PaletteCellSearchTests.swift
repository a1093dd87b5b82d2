import Foundation
import GRDB
import Processing
import Testing

@testable import Catalog

/// The search with several colours over `palette_cell` (``PaletteCellSearch``) gives exactly the full
/// scan's results (the same entries, order, scores and matched colours) and the R*Tree search's, on
/// generated catalogs: 2 and 3 colours, exact ties, several `within`, camera and date filters, limits
/// from 1 to beyond every match, read from `palette_pack` and from `palette_cell` row by row. And the
/// table follows `palette_color` as the R*Tree does (the pack's upkeep: `PalettePackTests.swift`).
@Suite(.timeLimit(.minutes(15))) struct PaletteCellSearchTests {
    /// A fixed-seed generator: a failure replays.
    struct Generator {
        var state: UInt64
        mutating func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(UInt64(1) << 53)
        }
    }

    func photo(_ colors: [(hex: String, share: Double)], make: String, taken: String) -> ProcessedPhoto {
        ProcessedPhoto(
            format: .png, width: 10, height: 10,
            exif: ExifMetadata(
                make: make, model: "M", lensModel: nil, takenAt: taken, exposureTime: nil, fNumber: nil, iso: nil,
                focalLength: nil, orientation: nil, gpsLatitude: nil, gpsLongitude: nil, gpsAltitude: nil, tags: [:]),
            sticker: StickerImage(png: [0x89, 0x50, 0x4E, 0x47], width: 10, height: 10),
            palette: Palette(colors: colors.map { hex, share in
                let lab = ColorName.parse(hex)!.oklab
                return PaletteColor(hex: hex, l: lab.l, a: lab.a, b: lab.b, share: share)
            }),
            pipelineVersion: 0, settings: .default)
    }

    /// `count` stickers: random palettes of 1–5 colours, one in three with an orange, one in five with a
    /// navy; with `ties`, colours and shares drawn from short lists, so many scores are exactly equal.
    func catalog(_ count: Int, ties: Bool, seed: UInt64, in directory: URL) async throws -> SQLiteCatalogStore {
        let store = try SQLiteCatalogStore(url: directory.appending(path: "c.sqlite"), access: .readWrite)
        var random = Generator(state: seed)
        let hexes = ["#ff9900", "#ffa500", "#f08000", "#000080", "#101070", "#808080", "#20b2aa", "#ffffff"]
        let tiedShares = [0.5, 0.25, 0.125, 0.0625, 0.0625]
        var batch: [ProcessedEntry] = []
        for index in 0..<count {
            let colorCount = 1 + Int(random.unit() * 5)
            var shares = ties ? Array(tiedShares.prefix(colorCount)) : (0..<colorCount).map { _ in random.unit() + 0.02 }
            if !ties {
                let total = shares.reduce(0, +)
                shares = shares.map { $0 / total }.sorted(by: >)
            }
            let colors = shares.enumerated().map { rank, share in
                let hex: String
                if ties {
                    hex = hexes[Int(random.unit() * Double(hexes.count))]
                } else if rank == 1 && index % 3 == 0 {
                    hex = "#ff9a10"
                } else if rank == 0 && index % 5 == 0 {
                    hex = "#000088"
                } else {
                    hex = SRGBColor(red: UInt8(random.unit() * 255.999), green: UInt8(random.unit() * 255.999), blue: UInt8(random.unit() * 255.999)).hex
                }
                return (hex, share)
            }
            let taken = String(format: "%04d-%02d-%02dT12:00:00Z", 2020 + index % 6, 1 + index % 12, 1 + index % 28)
            batch.append(ProcessedEntry(
                photo: photo(colors, make: ["Canon", "Nikon", "Fujifilm"][index % 3], taken: taken),
                sha256: sha(index), source: source("/\(index)")))
        }
        _ = try await store.recordProcessed(batch: batch)
        return store
    }

    /// Every query's results from `palette_cell` equal the full scan's and the R*Tree search's exactly,
    /// and the fast path did answer them (not the R*Tree fallback).
    func expectSameAsTheFullScan(_ store: SQLiteCatalogStore, _ queries: [ColorQuery]) throws {
        for query in queries {
            let fast = try store.search(query)
            let scanned = try store.searchByFullScan(query)
            #expect(fast == scanned, "\(query)")
            #expect(try store.searchFollowingRarestColor(query) == scanned, "\(query)")
            #expect(try store.searchReadingCellRows(query) == scanned, "\(query)")
            let answered = try store.read { db in try PaletteCellSearch(query: query, db: db).search { Set($0) } != nil }
            #expect(answered, "\(query)")
        }
        // `search` above read the pack: nothing was waiting to be packed.
        #expect(try store.read { db in try PalettePack.isCurrent(db) })
    }

    func queries(_ colors: [[String]], within: [Double], limits: [Int],
                         filters: [(camera: String?, after: String?, before: String?)] = [(nil, nil, nil)]) -> [ColorQuery] {
        var queries: [ColorQuery] = []
        for names in colors {
            for distance in within {
                for limit in limits {
                    for filter in filters {
                        queries.append(ColorQuery(
                            colors: names.map { ColorName.parse($0)!.oklab }, within: distance, limit: limit,
                            camera: filter.camera, takenAfter: filter.after, takenBefore: filter.before))
                    }
                }
            }
        }
        return queries
    }

    @Test func twoAndThreeColoursEqualTheFullScan() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await catalog(3000, ties: false, seed: 5, in: directory)
            try expectSameAsTheFullScan(store, queries(
                [["orange", "navy"], ["navy", "orange"], ["orange", "navy", "grey"], ["#ff9a10", "white", "teal"], ["orange", "orange"]],
                within: [6, 12, 25], limits: [1, 5, 20, 400, 5000]))
        }
    }

    @Test func exactTiesAreBrokenAsTheFullScanBreaksThem() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await catalog(2500, ties: true, seed: 11, in: directory)
            try expectSameAsTheFullScan(store, queries(
                [["orange", "navy"], ["navy", "grey", "orange"], ["#ff9900", "#ffa500"], ["white", "lightseagreen"]],
                within: [3, 12, 20], limits: [1, 7, 20, 3000]))
        }
    }

    @Test func filtersCombinedEqualTheFullScan() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await catalog(3000, ties: false, seed: 23, in: directory)
            try expectSameAsTheFullScan(store, queries(
                [["orange", "navy"], ["orange", "navy", "grey"]], within: [12, 20], limits: [1, 10, 200],
                filters: [("canon", nil, nil), (nil, "2022-01-01", nil), ("nikon", "2021-06-01", "2025-01-01"),
                          ("fuji", "2024-01-01", nil), ("no such camera", nil, nil)]))
        }
    }

    /// `palette_cell` holds every palette colour once, in the cell `PaletteCellSearch.index` computes,
    /// through inserts, cascading deletes and updates (what a reprocess does), and colours at the edges.
    @Test func tableFollowsThePalettes() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let store = try SQLiteCatalogStore(url: url, access: .readWrite)
            _ = try await store.recordProcessed(photo([("#ff8800", 0.7), ("#000080", 0.3)], make: "Canon", taken: "2024-01-01T00:00:00Z"),
                                                sha256: sha(1), source: source("/1"))
            _ = try await store.recordProcessed(photo([("#000000", 0.5), ("#ffffff", 0.25), ("#0000ff", 0.25)], make: "Canon", taken: "2024-01-01T00:00:00Z"),
                                                sha256: sha(2), source: source("/2"))
            let queue = try DatabaseQueue(path: url.path)
            func consistent() throws -> Bool {
                try queue.read { db in
                    let colors = try Row.fetchAll(db, sql: "SELECT id, photo_id, l, a, b, share FROM palette_color ORDER BY id")
                    let cells = try Row.fetchAll(db, sql: "SELECT id, photo_id, l, a, b, share, cell FROM palette_cell ORDER BY id")
                    guard colors.count == cells.count else { return false }
                    return zip(colors, cells).allSatisfy { color, cell in
                        let index = { (value: Double) in PaletteCellSearch.index(value) }
                        let expected = Int64((index(color[2]) * PaletteCellSearch.indexes + index(color[3])) * PaletteCellSearch.indexes + index(color[4]))
                        return (0..<6).allSatisfy { (color[$0] as DatabaseValue) == (cell[$0] as DatabaseValue) } && (cell[6] as Int64) == expected
                    }
                }
            }
            #expect(try consistent())
            try await queue.write { db in
                try db.execute(sql: "DELETE FROM photo WHERE id = 1")
                try db.execute(sql: "INSERT INTO palette_color (photo_id, rank, hex, l, a, b, share) VALUES (2, 3, '#ff00ff', 1.2, -0.7, 2.5, 0.1)")
                try db.execute(sql: "UPDATE palette_color SET share = 0.4, l = 0.5 WHERE rank = 0")
            }
            #expect(try consistent())
            let count = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM palette_cell") }
            #expect(count == 4)
            // (The test stickers' 4-byte PNGs are a `sticker-size` problem of their own.)
            #expect(try store.verify().problems.filter { $0.check == "palette-index" }.isEmpty)
            // A row lost and one moved to another cell: verify names both colours, and the moved row.
            try await queue.write { db in
                try db.execute(sql: "DELETE FROM palette_cell WHERE id = (SELECT min(id) FROM palette_cell)")
                try db.execute(sql: "UPDATE palette_cell SET cell = cell + 1 WHERE id = (SELECT max(id) FROM palette_cell)")
            }
            let problems = try store.verify().problems.filter { $0.check == "palette-index" }
            #expect(problems.map(\.id) == [2, 2, nil])
            #expect(problems.allSatisfy { $0.message.contains("palette_cell") })
        }
    }

    /// Palettes recorded before migration 0005 are put in `palette_cell` by it (and packed by 0006), and searched there.
    @Test func migrationFillsTheTable() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let expected: [ColorSearchResult]
            let query = ColorQuery(colors: [ColorName.parse("orange")!.oklab, ColorName.parse("navy")!.oklab], limit: 50)
            do {
                let store = try await catalog(1500, ties: false, seed: 3, in: directory)
                expected = try store.searchByFullScan(query)
                #expect(!expected.isEmpty)
            }
            let queue = try DatabaseQueue(path: url.path)
            try await queue.write { db in
                // As before migration 0005: neither palette_cell nor palette_pack (0006) yet.
                try db.execute(sql: "DROP TABLE palette_cell")  // (drops palette_pack's triggers with it)
                for name in ["insert", "delete", "update"] { try db.execute(sql: "DROP TRIGGER palette_cell_\(name)") }
                try db.execute(sql: "DROP TABLE palette_pack")
                try db.execute(sql: "DROP TABLE palette_pack_dirty")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN ('0005_palette_cell', '0006_palette_pack')")
            }
            let reopened = try SQLiteCatalogStore(url: url, access: .readWrite)
            let rows = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM palette_cell") }
            let colors = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM palette_color") }
            #expect(rows == colors)
            #expect(try reopened.search(query) == expected)
            #expect(try reopened.verify().problems.filter { $0.check == "palette-index" }.isEmpty)
        }
    }
}
