import Foundation
import GRDB
import Processing

/// `palette_pack` (migration 0006): the rows of `palette_cell` packed by (cell, band of share), one BLOB
/// of fixed 48-byte records a band, so that the search with several colours (``PaletteCellSearch``)
/// steps SQLite's B-tree once a band instead of once a palette colour and decodes the records itself.
///
/// Triggers on `palette_cell` note each band a write touches in `palette_pack_dirty`; the writer packs
/// those bands again before its transaction commits (``flush(_:)``, from ``SQLiteCatalogStore`` and the
/// migrations). A search reads the pack only while nothing is noted (``isCurrent(_:)``).
enum PalettePack {
    /// Bands of share in a cell: a band holds shares in [band / 64, (band + 1) / 64); the outer bands
    /// also hold anything beyond (migration 0006 computes the same).
    static let bands = 64
    /// share, l, a, b (IEEE doubles), id, photo_id (64-bit integers), all little-endian.
    static let recordSize = 48

    /// The band of a share, as migration 0006's triggers compute it (× 64 is exact, so they agree).
    static func band(of share: Double) -> Int {
        let scaled = share * Double(bands)
        guard scaled >= 0 else { return 0 }
        return scaled >= Double(bands - 1) ? bands - 1 : Int(scaled)
    }

    /// The row key of a cell's band (migration 0006's `cell_band`): sorted by cell, then band.
    static func key(cell: Int64, band: Int) -> Int64 {
        cell * Int64(bands) + Int64(band)
    }

    /// The cell and band of a row key.
    static func cellAndBand(_ key: Int64) -> (cell: Int64, band: Int) {
        (key / Int64(bands), Int(key % Int64(bands)))
    }

    /// At least every share band `band` holds (1 for the top band: shares are at most 1).
    static func upperBound(of band: Int) -> Double {
        Double(band + 1) / Double(bands)
    }

    /// The highest band to read when every unread share is at most `bound`, a value ``upperBound(of:)``
    /// gave (or 1 or more, for a cell not read yet).
    static func highestBand(atMost bound: Double) -> Int {
        bound >= 1 ? bands - 1 : max(Int((bound * Double(bands)).rounded(.up)) - 1, 0)
    }

    /// Appends the records of a band's BLOB to `rows`.
    @inline(__always)
    static func appendRecords(_ bytes: UnsafeRawBufferPointer, to rows: inout [PaletteCellReader.Row]) {
        var offset = 0
        while offset + recordSize <= bytes.count {
            @inline(__always) func word(_ at: Int) -> UInt64 {
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + at, as: UInt64.self))
            }
            rows.append(PaletteCellReader.Row(
                share: Double(bitPattern: word(0)), id: Int64(bitPattern: word(32)), photo: Int64(bitPattern: word(40)),
                color: OklabColor(l: Double(bitPattern: word(8)), a: Double(bitPattern: word(16)), b: Double(bitPattern: word(24)))
            ))
            offset += recordSize
        }
    }

    /// The records of a band's BLOB.
    static func records(_ bytes: UnsafeRawBufferPointer) -> [PaletteCellReader.Row] {
        var rows: [PaletteCellReader.Row] = []
        appendRecords(bytes, to: &rows)
        return rows
    }

    /// The records of `rows`, as a band's BLOB.
    static func encode(_ rows: [PaletteCellReader.Row]) -> Data {
        var bytes = Data(capacity: rows.count * recordSize)
        for row in rows {
            for word in [row.share.bitPattern, row.color.l.bitPattern, row.color.a.bitPattern, row.color.b.bitPattern,
                         UInt64(bitPattern: row.id), UInt64(bitPattern: row.photo)] {
                withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        return bytes
    }

    /// The rows of one band of `palette_cell`, by share then id.
    static func rows(cell: Int64, band: Int, _ db: Database) throws -> [PaletteCellReader.Row] {
        let lower = band == 0 ? -Double.infinity : Double(band) / Double(bands)
        let upper = band == bands - 1 ? Double.infinity : upperBound(of: band)
        let statement = try db.cachedStatement(sql: """
            SELECT share, id, photo_id, l, a, b FROM palette_cell WHERE cell = ? AND share >= ? AND share < ? ORDER BY share, id
            """)
        return try Row.fetchAll(statement, arguments: [cell, lower, upper]).map { row in
            PaletteCellReader.Row(share: row[0], id: row[1], photo: row[2], color: OklabColor(l: row[3], a: row[4], b: row[5]))
        }
    }

    /// Packs again every band noted in `palette_pack_dirty`, then clears it. Inside the writer's transaction.
    static func flush(_ db: Database) throws {
        let dirty = try Int64.fetchAll(db.cachedStatement(sql: "SELECT cell_band FROM palette_pack_dirty"))
        guard !dirty.isEmpty else { return }
        let store = try db.cachedStatement(sql: "INSERT OR REPLACE INTO palette_pack (cell_band, rows) VALUES (?, ?)")
        let remove = try db.cachedStatement(sql: "DELETE FROM palette_pack WHERE cell_band = ?")
        for key in dirty {
            let (cell, band) = cellAndBand(key)
            let rows = try rows(cell: cell, band: band, db)
            if rows.isEmpty {
                try remove.execute(arguments: [key])
            } else {
                try store.execute(arguments: [key, encode(rows)])
            }
        }
        try db.execute(sql: "DELETE FROM palette_pack_dirty")
    }

    /// Packs what is noted when the catalog has the pack (a migration before 0006 has nothing to pack).
    static func flushIfPresent(_ db: Database) throws {
        guard try db.tableExists("palette_pack_dirty") else { return }
        try flush(db)
    }

    /// Whether `palette_pack` matches `palette_cell`: no band is waiting to be packed (a write outside
    /// the catalog's writer, e.g. the sqlite3 shell, leaves some until the next write by `catalog`).
    static func isCurrent(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT NOT EXISTS (SELECT 1 FROM palette_pack_dirty)")) ?? false
    }
}
