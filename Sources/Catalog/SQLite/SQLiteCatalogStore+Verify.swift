import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// Checks the catalog without changing it, in one read transaction (one consistent snapshot, while
    /// other processes may write): SQLite's `integrity_check` and `foreign_key_check`, every ok entry
    /// complete (a sticker, its PNG, sizes that agree), palettes (ranks 0..n-1, shares in order and
    /// summing to at most 1), the palette's R*Tree index against `palette_color` when the catalog has
    /// one, and which source files are missing (reported, not counted as problems).
    public nonisolated func verify() throws(CatalogError) -> VerifyReport {
        var report = try read { db in
            var problems: [VerifyReport.Problem] = []
            problems += try Self.integrityProblems(db)
            problems += try Self.foreignKeyProblems(db)
            problems += try Self.stickerProblems(db)
            problems += try Self.paletteProblems(db)
            let index = try Self.paletteIndexProblems(db)
            problems += index ?? []
            let sources = try Row.fetchAll(db, sql: "SELECT id, path FROM photo ORDER BY id").map {
                VerifyReport.MissingSource(id: $0["id"], path: $0["path"])
            }
            return (
                VerifyReport(
                    entries: try PhotoRecord.fetchCount(db), paletteColors: try PaletteColorRecord.fetchCount(db),
                    paletteIndexChecked: index != nil, problems: problems, missingSources: []
                ),
                sources
            )
        }
        // File-system checks happen outside the transaction: they do not need the snapshot.
        report.0.missingSources = report.1.filter { !EscapedPath.exists($0.path) }
        return report.0
    }

    // MARK: - Checks (inside the read transaction)

    private static func integrityProblems(_ db: Database) throws -> [VerifyReport.Problem] {
        let rows = try String.fetchAll(db, sql: "PRAGMA integrity_check(100)")
        if rows == ["ok"] { return [] }
        return rows.map { VerifyReport.Problem(check: "integrity", message: $0) }
    }

    private static func foreignKeyProblems(_ db: Database) throws -> [VerifyReport.Problem] {
        try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
            let table: String = row[0]
            let rowid: Int64? = row[1]
            let parent: String = row[2]
            return VerifyReport.Problem(
                check: "foreign-key",
                message: "\(table) row \(rowid.map(String.init) ?? "?") refers to a missing \(parent) row"
            )
        }
    }

    /// Every ok entry has a sticker and its PNG; the recorded size is the PNG's, and the PNG's header
    /// has the recorded width and height.
    private static func stickerProblems(_ db: Database) throws -> [VerifyReport.Problem] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT p.id, s.photo_id IS NOT NULL AS has_sticker, g.photo_id IS NOT NULL AS has_png,
                   s.width, s.height, s.bytes, length(g.png) AS png_bytes, substr(g.png, 1, 24) AS head
            FROM photo p
            LEFT JOIN sticker s ON s.photo_id = p.id
            LEFT JOIN sticker_png g ON g.photo_id = p.id
            WHERE p.status = 'ok' OR s.photo_id IS NOT NULL
            ORDER BY p.id
            """)
        return rows.flatMap { row in
            VerifyRules.problems(VerifyRules.StickerRow(
                id: row["id"], hasSticker: row["has_sticker"], hasPNG: row["has_png"], width: row["width"] ?? 0, height: row["height"] ?? 0,
                bytes: row["bytes"] ?? 0, pngBytes: row["png_bytes"] ?? 0, head: [UInt8]((row["head"] as Data?) ?? Data())))
        }
    }

    /// Per sticker: ranks 0..n-1, shares non-increasing with the rank, their sum at most 1.
    private static func paletteProblems(_ db: Database) throws -> [VerifyReport.Problem] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT photo_id, count(*) AS n, min(rank) AS low, max(rank) AS high, sum(share) AS total
            FROM palette_color GROUP BY photo_id ORDER BY photo_id
            """)
        var problems = rows.flatMap { row in
            VerifyRules.problems(VerifyRules.PaletteRow(
                id: row["photo_id"], count: row["n"], lowRank: row["low"], highRank: row["high"], shareSum: row["total"]))
        }
        let unordered = try Int64.fetchAll(db, sql: """
            SELECT DISTINCT a.photo_id FROM palette_color a JOIN palette_color b
              ON b.photo_id = a.photo_id AND b.rank = a.rank + 1
            WHERE b.share > a.share + 1e-9 ORDER BY a.photo_id
            """)
        problems += unordered.map(VerifyRules.unorderedShares)
        return problems
    }

    /// When the catalog has the palette's R*Tree (`palette_index`, migration 0002: one point per
    /// `palette_color` row, keyed by its id): the same ids on both sides, each point at its colour. Nil when there is no such table (catalogs from before that migration).
    private static func paletteIndexProblems(_ db: Database) throws -> [VerifyReport.Problem]? {
        guard try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'palette_index'") == true else {
            return nil
        }
        let key = "id"
        var problems: [VerifyReport.Problem] = []
        let unindexed = try Row.fetchAll(db, sql: """
            SELECT c.id, c.photo_id FROM palette_color c
            WHERE NOT EXISTS (SELECT 1 FROM palette_index i WHERE i.\(key) = c.id) ORDER BY c.id
            """)
        for row in unindexed {
            let id: Int64 = row["photo_id"]
            let color: Int64 = row["id"]
            problems.append(.init(check: "palette-index", id: id, message: "entry \(id): palette colour \(color) is missing from palette_index"))
        }
        let orphans = try Int64.fetchAll(db, sql: """
            SELECT i.\(key) FROM palette_index i
            WHERE NOT EXISTS (SELECT 1 FROM palette_color c WHERE c.id = i.\(key)) ORDER BY 1
            """)
        for color in orphans {
            problems.append(.init(check: "palette-index", message: "palette_index row \(color) has no palette colour"))
        }
        // Migration 0002's layout: a point per colour over (l, a, b, share), the photo id beside it. The
        // R*Tree stores 32-bit floats rounded outwards, hence the tolerance.
        let misplaced = try Row.fetchAll(db, sql: """
            SELECT c.id, c.photo_id FROM palette_color c JOIN palette_index i ON i.id = c.id
            WHERE NOT (i.l_min <= c.l + 1e-5 AND i.l_max >= c.l - 1e-5
                   AND i.a_min <= c.a + 1e-5 AND i.a_max >= c.a - 1e-5
                   AND i.b_min <= c.b + 1e-5 AND i.b_max >= c.b - 1e-5
                   AND i.share_min <= c.share + 1e-5 AND i.share_max >= c.share - 1e-5
                   AND i.photo_id = c.photo_id)
            ORDER BY c.id
            """)
        for row in misplaced {
            let id: Int64 = row["photo_id"]
            let color: Int64 = row["id"]
            problems.append(.init(check: "palette-index", id: id, message: "entry \(id): palette colour \(color) is indexed at other coordinates or under another entry"))
        }
        try problems.append(contentsOf: paletteCellProblems(db))
        try problems.append(contentsOf: palettePackProblems(db))
        return problems
    }

    /// When the catalog has `palette_cell` (migration 0005): every palette colour once, with its exact
    /// values, in the cell the migration's triggers compute, and no other row. Found by primary key, so
    /// one B-tree lookup a colour.
    private static func paletteCellProblems(_ db: Database) throws -> [VerifyReport.Problem] {
        guard try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'palette_cell'") == true else {
            return []
        }
        var problems: [VerifyReport.Problem] = []
        let missing = try Row.fetchAll(db, sql: """
            SELECT c.id, c.photo_id FROM palette_color c
            WHERE NOT EXISTS (SELECT 1 FROM palette_cell p
                WHERE p.cell = (max(0, min(127, CAST((c.l + 1) * 40 AS INTEGER))) * 128
                                + max(0, min(127, CAST((c.a + 1) * 40 AS INTEGER)))) * 128
                                + max(0, min(127, CAST((c.b + 1) * 40 AS INTEGER)))
                  AND p.share = c.share AND p.id = c.id
                  AND p.photo_id = c.photo_id AND p.l = c.l AND p.a = c.a AND p.b = c.b)
            ORDER BY c.id
            """)
        for row in missing {
            let id: Int64 = row["photo_id"]
            let color: Int64 = row["id"]
            problems.append(.init(check: "palette-index", id: id, message: "entry \(id): palette colour \(color) is missing from palette_cell or differs there"))
        }
        let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM palette_cell") ?? 0
        let colors = try Int.fetchOne(db, sql: "SELECT count(*) FROM palette_color") ?? 0
        if rows > colors - missing.count {
            problems.append(.init(check: "palette-index", message: "palette_cell has rows that match no palette colour (\(rows - (colors - missing.count)))"))
        }
        return problems
    }

    /// When the catalog has `palette_pack` (migration 0006): every band holds exactly `palette_cell`'s rows
    /// of that cell and band, with the same values, and no band is stored that `palette_cell` lacks. Bands
    /// waiting to be packed (written outside the catalog's writer) are skipped: searches do not read the
    /// pack while any is waiting. One pass over both tables in key order.
    private static func palettePackProblems(_ db: Database) throws -> [VerifyReport.Problem] {
        guard try db.tableExists("palette_pack") else { return [] }
        struct Key: Hashable, Comparable {
            var cell: Int64
            var band: Int
            static func < (left: Key, right: Key) -> Bool { (left.cell, left.band) < (right.cell, right.band) }
        }
        struct Record: Equatable {
            var share: UInt64, l: UInt64, a: UInt64, b: UInt64, id: Int64, photo: Int64
            init(_ row: PaletteCellReader.Row) {
                (share, l, a, b, id, photo) = (row.share.bitPattern, row.color.l.bitPattern, row.color.a.bitPattern,
                                               row.color.b.bitPattern, row.id, row.photo)
            }
        }
        func key(_ value: Int64) -> Key {
            let (cell, band) = PalettePack.cellAndBand(value)
            return Key(cell: cell, band: band)
        }
        let waiting = Set(try Int64.fetchAll(db, sql: "SELECT cell_band FROM palette_pack_dirty").map(key))
        // palette_cell by (cell, share, id) is also by (cell, band); a band's BLOB is compared sorted the same way.
        let expected = try Row.fetchCursor(db, sql: "SELECT cell, share, id, photo_id, l, a, b FROM palette_cell ORDER BY cell, share, id")
        var pending: (key: Key, row: PaletteCellReader.Row)?
        func nextBand() throws -> (key: Key, records: [Record])? {
            if pending == nil, let row = try expected.next() {
                let value = PaletteCellReader.Row(share: row[1], id: row[2], photo: row[3], color: OklabColor(l: row[4], a: row[5], b: row[6]))
                pending = (Key(cell: row[0], band: PalettePack.band(of: value.share)), value)
            }
            guard let first = pending else { return nil }
            var records = [Record(first.row)]
            pending = nil
            while let row = try expected.next() {
                let value = PaletteCellReader.Row(share: row[1], id: row[2], photo: row[3], color: OklabColor(l: row[4], a: row[5], b: row[6]))
                let key = Key(cell: row[0], band: PalettePack.band(of: value.share))
                guard key == first.key else { pending = (key, value); break }
                records.append(Record(value))
            }
            return (first.key, records)
        }
        var problems: [VerifyReport.Problem] = []
        func differs(_ key: Key, _ what: String) {
            guard !waiting.contains(key) else { return }
            problems.append(.init(check: "palette-index", message: "palette_pack cell \(key.cell) band \(key.band) \(what)"))
        }
        let stored = try Row.fetchCursor(db, sql: "SELECT cell_band, rows FROM palette_pack ORDER BY cell_band")
        var band = try nextBand()
        while let row = try stored.next() {
            let key = key(row[0])
            let bytes: Data = row[1]
            var records = bytes.withUnsafeBytes(PalettePack.records).map(Record.init)
            records.sort { (Double(bitPattern: $0.share), $0.id) < (Double(bitPattern: $1.share), $1.id) }
            while let expected = band, expected.key < key {
                differs(expected.key, "is missing (palette_cell has \(Counted(expected.records.count, "colour")) there)")
                band = try nextBand()
            }
            if let expected = band, expected.key == key {
                if expected.records != records || bytes.count % PalettePack.recordSize != 0 {
                    differs(key, "does not hold palette_cell's colours of that band (\(records.count) stored, \(expected.records.count) expected)")
                }
                band = try nextBand()
            } else {
                differs(key, "holds \(Counted(records.count, "colour")) that palette_cell does not have there")
            }
        }
        while let expected = band {
            differs(expected.key, "is missing (palette_cell has \(Counted(expected.records.count, "colour")) there)")
            band = try nextBand()
        }
        return problems
    }
}
