import Foundation
import GRDB
import Processing
import Testing

@testable import Catalog

/// `palette_pack` (migration 0006) holds `palette_cell`'s rows band by band through every write of the
/// catalog's writer (inserts, batches, replaces, failures replacing a sticker), is not searched while
/// a write from outside has left bands waiting, is built for an existing catalog by its migration, and
/// `verify` finds a damaged band.
extension PaletteCellSearchTests {
    /// No band waiting, and `verify` finds nothing wrong with the colour indexes.
    private func packIsCurrent(_ store: SQLiteCatalogStore) throws -> Bool {
        try store.read { db in try PalettePack.isCurrent(db) }
            && store.verify().problems.filter { $0.check == "palette-index" }.isEmpty
    }

    private var twoColours: [ColorQuery] {
        queries([["orange", "navy"], ["#ff9a10", "white", "teal"]], within: [12, 25], limits: [1, 20, 5000])
    }

    /// The colours the pack holds, decoded, against `palette_color`'s count.
    private func packedCount(_ url: URL) throws -> (packed: Int, colors: Int) {
        let queue = try DatabaseQueue(path: url.path)
        return try queue.read { db in
            var packed = 0
            for bytes in try Data.fetchAll(db, sql: "SELECT rows FROM palette_pack") {
                packed += bytes.withUnsafeBytes(PalettePack.records).count
            }
            return (packed, try Int.fetchOne(db, sql: "SELECT count(*) FROM palette_color") ?? 0)
        }
    }

    @Test func packFollowsEveryWrite() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let store = try await catalog(1200, ties: false, seed: 31, in: directory)
            #expect(try packIsCurrent(store))
            #expect(try packedCount(url).packed == packedCount(url).colors)
            try expectSameAsTheFullScan(store, twoColours)

            let taken = "2024-01-01T00:00:00Z"
            let added = try await store.recordProcessed(photo([("#ff9a10", 0.6), ("#000088", 0.4)], make: "Canon", taken: taken),
                                                        sha256: sha(90_001), source: source("/new"))
            guard case .imported(let id) = added else { Issue.record("not imported: \(added)"); return }
            #expect(try packIsCurrent(store))
            let wide = ColorQuery(colors: [ColorName.parse("orange")!.oklab, ColorName.parse("navy")!.oklab], limit: 5000)
            #expect(try store.search(wide).contains { $0.id == id })

            // A replace (what a reprocess writes) moves the palette: other cells and bands.
            let replaced = try await store.replace(id: id, expectedSHA256: sha(90_001),
                                                   with: photo([("#20b2aa", 0.9), ("#ffffff", 0.1)], make: "Canon", taken: taken),
                                                   sha256: sha(90_001), source: source("/new"))
            #expect(replaced == .replaced)
            #expect(try packIsCurrent(store))
            #expect(try !store.search(wide).contains { $0.id == id })

            // A failure replacing the sticker deletes its palette.
            // (Entry 5 is the catalog's fifth sticker, recorded with sha(4).)
            let failed = try await store.replaceWithFailure(id: 5, expectedSHA256: sha(4), sha256: sha(4), source: source("/4"),
                                                            format: .png, facts: nil, code: "decode", message: "broken")
            #expect(failed == .failed)
            #expect(try packIsCurrent(store))
            #expect(try packedCount(url).packed == packedCount(url).colors)
            try expectSameAsTheFullScan(store, twoColours)
        }
    }

    @Test func writesFromOutsideAreNotSearchedUntilPacked() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let store = try await catalog(800, ties: false, seed: 37, in: directory)
            let queue = try DatabaseQueue(path: url.path)
            // As the sqlite3 shell would: palette_cell follows (its triggers), the pack cannot.
            try await queue.write { db in
                try db.execute(sql: "DELETE FROM photo WHERE id IN (1, 2, 3)")
                try db.execute(sql: "UPDATE palette_color SET share = 0.93, l = 0.7 WHERE photo_id = 10 AND rank = 0")
            }
            #expect(try !store.read { db in try PalettePack.isCurrent(db) })
            // Searches read palette_cell itself meanwhile, and verify skips the waiting bands.
            for query in twoColours { #expect(try store.search(query) == store.searchByFullScan(query), "\(query)") }
            #expect(try store.verify().problems.filter { $0.check == "palette-index" }.isEmpty)
            // The catalog's next write packs them.
            try await store.store(.paletteColors, value: "6")
            #expect(try packIsCurrent(store))
            #expect(try packedCount(url).packed == packedCount(url).colors)
            try expectSameAsTheFullScan(store, twoColours)
        }
    }

    /// Palettes recorded before migration 0006 are packed by it, and searched there.
    @Test func migrationPacksAnExistingCatalog() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            do { _ = try await catalog(1500, ties: true, seed: 41, in: directory) }
            let queue = try DatabaseQueue(path: url.path)
            try await queue.write { db in
                for name in ["insert", "delete", "update"] { try db.execute(sql: "DROP TRIGGER palette_pack_\(name)") }
                try db.execute(sql: "DROP TABLE palette_pack")
                try db.execute(sql: "DROP TABLE palette_pack_dirty")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = '0006_palette_pack'")
            }
            let reopened = try SQLiteCatalogStore(url: url, access: .readWrite)
            #expect(reopened.preMigrationCopy != nil)
            #expect(try packIsCurrent(reopened))
            let counts = try packedCount(url)
            #expect(counts.packed == counts.colors && counts.colors > 1500)
            try expectSameAsTheFullScan(reopened, twoColours)
        }
    }

    @Test func verifyFindsADamagedPack() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let store = try await catalog(600, ties: false, seed: 43, in: directory)
            #expect(try packIsCurrent(store))
            let queue = try DatabaseQueue(path: url.path)
            let keys = try await queue.read { db in
                try Int64.fetchAll(db, sql: "SELECT cell_band FROM palette_pack WHERE length(rows) >= 96 ORDER BY cell_band LIMIT 3")
            }
            try #require(keys.count == 3)
            // Direct writes to palette_pack fire no trigger: nothing is noted as waiting, as in real damage.
            try await queue.write { db in
                // One record's share changed; one record dropped; one band lost; and a band with no colours.
                try db.execute(sql: "UPDATE palette_pack SET rows = zeroblob(8) || substr(rows, 9) WHERE cell_band = ?", arguments: [keys[0]])
                try db.execute(sql: "UPDATE palette_pack SET rows = substr(rows, 49) WHERE cell_band = ?", arguments: [keys[1]])
                try db.execute(sql: "DELETE FROM palette_pack WHERE cell_band = ?", arguments: [keys[2]])
                try db.execute(sql: "INSERT INTO palette_pack (cell_band, rows) VALUES (3 * 64 + 5, zeroblob(48))")
            }
            let problems = try store.verify().problems.filter { $0.check == "palette-index" }
            #expect(problems.count == 4, "\(problems)")
            #expect(problems.allSatisfy { $0.message.hasPrefix("palette_pack cell ") })
            let lost = PalettePack.cellAndBand(keys[2])
            #expect(problems.contains { $0.message.contains("cell \(lost.cell) band \(lost.band) is missing") })
            #expect(problems.contains { $0.message.contains("cell 3 band 5 holds 1 colour") })
        }
    }
}
