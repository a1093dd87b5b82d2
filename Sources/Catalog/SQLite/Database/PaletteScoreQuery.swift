import GRDB
import GRDBSQLite
import Processing

/// The `palette_score(l, a, b, within, floor)` R*Tree query function of `palette_index` (SQLite's custom R*Tree
/// queries, `sqlite3_rtree_query_callback`): it hands out the palette colours within `within` (Oklab
/// distance, not ×100) of the colour `(l, a, b)`, best possible score first. The R*Tree visits nodes and
/// entries in order of increasing `rScore`, and every box is given `2 − upperBound`, where upperBound
/// is the most any point in the box can score (its largest share, scaled down by its nearest distance),
/// so the rows come out by falling upper bound: a best-first search done inside SQLite. The floor
/// keeps SQLite's queue short: every box that cannot reach it is dropped at once (SQLite scans the
/// queue when it adds a node, so a queue of every colour within `within` made each row cost microseconds).
///
/// The only file that touches SQLite's C API: the R*Tree query callback and its info pointer, and the
/// search's hot reads (``PaletteStream``, ``palettes(of:_:)``, ``PaletteCellReader``, ``PalettePackReader``), stepped and read
/// column by column without GRDB's `Row` (whose decoding cost more than SQLite's own work there).
enum PaletteScoreQuery {
    static let functionName = "palette_score"

    /// Registers the function on a connection (every catalog connection, through `prepareDatabase`).
    static func register(_ db: Database) throws {
        guard let connection = db.sqliteConnection else { return }
        let code = sqlite3_rtree_query_callback(connection, functionName, { info in
            guard let info, info.pointee.nParam == 5, info.pointee.nCoord == 8 else { return SQLITE_ERROR }
            let parameters = info.pointee.aParam!
            let box = info.pointee.aCoord!
            let bound = PaletteScoreQuery.upperBound(
                l: parameters[0], a: parameters[1], b: parameters[2], within: parameters[3],
                lRange: box[0]...max(box[0], box[1]), aRange: box[2]...max(box[2], box[3]),
                bRange: box[4]...max(box[4], box[5]), shareMax: box[7]
            )
            if let bound, bound >= parameters[4] {
                info.pointee.eWithin = PARTLY_WITHIN
                info.pointee.rScore = 2 - bound
            } else {
                info.pointee.eWithin = NOT_WITHIN
            }
            return SQLITE_OK
        }, nil, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(functionName)")
        }
    }

    /// The highest score a palette colour in the box can have for a query colour `(l, a, b)` with
    /// threshold `within` (Oklab units): `shareMax × (1 − nearest distance / within)`; nil when the whole
    /// box is farther than `within`. An upper bound of the exact score of every colour the box holds
    /// (the R*Tree's 32-bit floats are rounded outwards, so the box holds the exact values).
    static func upperBound(
        l: Double, a: Double, b: Double, within: Double,
        lRange: ClosedRange<Double>, aRange: ClosedRange<Double>, bRange: ClosedRange<Double>, shareMax: Double
    ) -> Double? {
        func gap(_ value: Double, _ range: ClosedRange<Double>) -> Double {
            value < range.lowerBound ? range.lowerBound - value : value > range.upperBound ? value - range.upperBound : 0
        }
        let dl = gap(l, lRange), da = gap(a, aRange), db = gap(b, bRange)
        let distance = (dl * dl + da * da + db * db).squareRoot()
        guard distance <= within else { return nil }
        return max(shareMax, 0) * (1 - distance / within)
    }
}

extension PaletteScoreQuery {
    /// One palette colour, exact (from `palette_color`).
    struct PaletteRow {
        var id: Int64
        var photo: Int64
        var color: OklabColor
        var share: Double
    }

    /// The palette colours of `photos`, by photo then id.
    static func palettes(of photos: [Int64], _ db: Database) throws -> [PaletteRow] {
        guard !photos.isEmpty else { return [] }
        // Ids are integers: nothing to escape, and no bound-variable limit.
        let statement = try db.makeStatement(sql: """
            SELECT id, photo_id, l, a, b, share FROM palette_color
            WHERE photo_id IN (\(photos.map(String.init).joined(separator: ","))) ORDER BY photo_id, id
            """)
        var rows: [PaletteRow] = []
        rows.reserveCapacity(photos.count * 5)
        let raw = statement.sqliteStatement
        while try step(raw) {
            rows.append(PaletteRow(
                id: sqlite3_column_int64(raw, 0), photo: sqlite3_column_int64(raw, 1),
                color: OklabColor(l: sqlite3_column_double(raw, 2), a: sqlite3_column_double(raw, 3), b: sqlite3_column_double(raw, 4)),
                share: sqlite3_column_double(raw, 5)
            ))
        }
        return rows
    }

    /// One step: true for a row, false when done.
    fileprivate static func step(_ raw: SQLiteStatement) throws -> Bool {
        switch sqlite3_step(raw) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(raw))))
        }
    }
}

/// One query colour's palette colours from the R*Tree that may score `floor` or more, by falling upper
/// bound of their score (``PaletteScoreQuery``).
final class PaletteStream {
    struct Entry {
        var photo: Int64
        /// At least the colour's exact score (`ColorQuery.score`), never more than the previous entry's.
        var bound: Double
    }

    private let statement: Statement
    private let color: OklabColor
    private let radius: Double
    private var done = false

    init(db: Database, color: OklabColor, within: Double, floor: Double) throws {
        self.color = color
        // In Oklab units, a hair wider than `within`: a colour just at the threshold is never lost to rounding.
        radius = within / 100 * (1 + 1e-9)
        statement = try db.makeStatement(sql: """
            SELECT photo_id, l_min, l_max, a_min, a_max, b_min, b_max, share_max FROM palette_index
            WHERE id MATCH \(PaletteScoreQuery.functionName)(?, ?, ?, ?, ?)
            """)
        for (index, value) in [color.l, color.a, color.b, radius, floor].enumerated() {
            sqlite3_bind_double(statement.sqliteStatement, Int32(index + 1), value)
        }
    }

    func next() throws -> Entry? {
        let raw = statement.sqliteStatement
        guard !done, try PaletteScoreQuery.step(raw) else {
            done = true
            return nil
        }
        let bound = PaletteScoreQuery.upperBound(
            l: color.l, a: color.a, b: color.b, within: radius,
            lRange: sqlite3_column_double(raw, 1)...sqlite3_column_double(raw, 2),
            aRange: sqlite3_column_double(raw, 3)...sqlite3_column_double(raw, 4),
            bRange: sqlite3_column_double(raw, 5)...sqlite3_column_double(raw, 6),
            shareMax: sqlite3_column_double(raw, 7)
        )
        return Entry(photo: sqlite3_column_int64(raw, 0), bound: bound ?? -1)
    }
}

/// Where the search with several colours (``PaletteCellSearch``) reads a cell's palette colours from,
/// largest shares first: `palette_cell` row by row, or `palette_pack` a band at a time.
protocol PaletteCellSource {
    /// Appends to `rows` at least every unread row of `cell` with a share of at least `downTo` (perhaps
    /// more), none read before; `atMost` is what the previous read of the cell returned (2 for the first).
    /// Returns a bound of the shares of the rows still unread, or nil when the cell has no more rows.
    /// (Rows go to a buffer the caller reuses, not to a closure: the caller's loop over them then needs
    /// no closure context, whose captured variables cost dynamic exclusivity checks on every row.)
    func read(cell: Int64, atMost: Double, downTo: Double, into rows: inout [PaletteCellReader.Row]) throws -> Double?
}

/// Reads the palette colours of one cell of `palette_cell` (migration 0005) by falling share: the
/// sequential reads behind the search with several colours (``PaletteCellSearch``) while `palette_pack`
/// is not current. One prepared statement, rebound for every cell.
final class PaletteCellReader: PaletteCellSource {
    /// One palette colour, exact.
    struct Row {
        var share: Double
        var id: Int64
        var photo: Int64
        var color: OklabColor
    }

    private let statement: Statement

    init(db: Database) throws {
        statement = try db.makeStatement(sql: """
            SELECT share, id, photo_id, l, a, b FROM palette_cell
            WHERE cell = ? AND share <= ? ORDER BY share DESC, id DESC
            """)
    }

    /// Appends to `rows` the rows of `cell` with a share of at most `atMost` and at least `downTo`, largest
    /// first. Returns the share of the first row below `downTo` (where the next read starts: rows of
    /// equal share are never split between reads), or nil when the cell has no more rows.
    func read(cell: Int64, atMost: Double, downTo: Double, into rows: inout [Row]) throws -> Double? {
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        sqlite3_bind_int64(raw, 1, cell)
        sqlite3_bind_double(raw, 2, atMost)
        while try PaletteScoreQuery.step(raw) {
            let share = sqlite3_column_double(raw, 0)
            if share < downTo { return share }
            rows.append(Row(
                share: share, id: sqlite3_column_int64(raw, 1), photo: sqlite3_column_int64(raw, 2),
                color: OklabColor(l: sqlite3_column_double(raw, 3), a: sqlite3_column_double(raw, 4), b: sqlite3_column_double(raw, 5))
            ))
        }
        return nil
    }
}

/// Reads one cell's bands of `palette_pack` (migration 0006) by falling share, each band's records
/// decoded from its BLOB in place: one B-tree step a band (tens of palette colours) instead of one a
/// colour. A band is handed over whole, so some rows below `downTo` come early; never twice.
final class PalettePackReader: PaletteCellSource {
    private let statement: Statement

    init(db: Database) throws {
        statement = try db.makeStatement(sql: """
            SELECT cell_band, rows FROM palette_pack WHERE cell_band BETWEEN ? AND ? ORDER BY cell_band DESC
            """)
    }

    /// `atMost` is 2 or a value this reader returned (``PalettePack/upperBound(of:)`` of the next band).
    func read(cell: Int64, atMost: Double, downTo: Double, into rows: inout [PaletteCellReader.Row]) throws -> Double? {
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        sqlite3_bind_int64(raw, 1, PalettePack.key(cell: cell, band: 0))
        sqlite3_bind_int64(raw, 2, PalettePack.key(cell: cell, band: PalettePack.highestBand(atMost: atMost)))
        let lowest = PalettePack.key(cell: cell, band: PalettePack.band(of: downTo))
        while try PaletteScoreQuery.step(raw) {
            let key = sqlite3_column_int64(raw, 0)
            if key < lowest { return PalettePack.upperBound(of: PalettePack.cellAndBand(key).band) }
            // The pointer is valid until the next step; the records are decoded before it.
            let count = Int(sqlite3_column_bytes(raw, 1))
            guard count > 0, let base = sqlite3_column_blob(raw, 1) else { continue }
            PalettePack.appendRecords(UnsafeRawBufferPointer(start: base, count: count), to: &rows)
        }
        return nil
    }
}
