import GRDB
import GRDBSQLite

/// The `palette_score(l, a, b, within)` R*Tree query function of `palette_index` (SQLite's custom R*Tree
/// queries, `sqlite3_rtree_query_callback`): it hands out the palette colours within `within` (Oklab
/// distance, not ×100) of the colour `(l, a, b)`, best possible score first. The R*Tree visits nodes and
/// entries in order of increasing `rScore`, and every box is given `2 − upperBound`, where upperBound
/// is the most any point in the box can score (its largest share, scaled down by its nearest distance),
/// so the rows come out by falling upper bound: a best-first search done inside SQLite.
///
/// The only file that touches SQLite's C API (the R*Tree query callback and its info pointer).
enum PaletteScoreQuery {
    static let functionName = "palette_score"

    /// Registers the function on a connection (every catalog connection, through `prepareDatabase`).
    static func register(_ db: Database) throws {
        guard let connection = db.sqliteConnection else { return }
        let code = sqlite3_rtree_query_callback(connection, functionName, { info in
            guard let info, info.pointee.nParam == 4, info.pointee.nCoord == 8 else { return SQLITE_ERROR }
            let parameters = info.pointee.aParam!
            let box = info.pointee.aCoord!
            let bound = PaletteScoreQuery.upperBound(
                l: parameters[0], a: parameters[1], b: parameters[2], within: parameters[3],
                lRange: box[0]...max(box[0], box[1]), aRange: box[2]...max(box[2], box[3]),
                bRange: box[4]...max(box[4], box[5]), shareMax: box[7]
            )
            if let bound {
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
