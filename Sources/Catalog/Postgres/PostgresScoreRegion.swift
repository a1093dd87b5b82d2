import PostgresNIO
import Processing

/// Where, in the 4-D space of `oklab_share` (Oklab l, a, b and the share × `shareScale`), every palette
/// colour lies that scores `floor` or more for one query colour: a few boxes, for the range operator `<@`
/// on the cube GiST index (Migrations/PostgreSQL/0005_palette_cell.sql).
///
/// A colour scoring `floor` has `share × (1 − ΔE / within) ≥ floor`, so a share of at least `floor` and,
/// with a share of at most `s`, a ΔE of at most `within × (1 − floor / s)`. The shares from `floor` up are
/// cut into slabs growing by `slabRatio`, each a box as wide as its largest share allows: much tighter
/// than one box for every share (a colour at a small share must be very near to score). Margins make
/// the boxes a little larger than the exact region, so that rounding on the server never leaves out a
/// colour that scores `floor` in Swift.
struct PostgresScoreRegion {
    /// The scale of the share axis of `oklab_share` (the migration's `share * 0.12`).
    static let shareScale = 0.12
    /// Each slab's largest share over its smallest. Smaller: tighter boxes but more of them, each an
    /// index descent (1.25 read the fewest index pages and rows at 1,000,000 stickers; 2 read 2-7× more).
    static let slabRatio = 1.25

    let color: OklabColor
    /// The query's ΔE reach.
    let within: Double
    /// The lowest score looked for (0: every colour within reach, whatever its share).
    let floor: Double

    /// The boxes, each its lower and upper corner.
    var boxes: [(lower: [Double], upper: [Double])] {
        let reach = within / 100
        func box(shares: ClosedRange<Double>) -> (lower: [Double], upper: [Double]) {
            let half = reach * max(0, 1 - floor / shares.upperBound) * (1 + 1e-9) + 1e-9
            return (
                [color.l - half, color.a - half, color.b - half, Self.shareScale * shares.lowerBound * (1 - 1e-9) - 1e-12],
                [color.l + half, color.a + half, color.b + half, Self.shareScale * shares.upperBound * (1 + 1e-9) + 1e-12])
        }
        // Below a floor of 0.01 slabs would be many and barely narrower: one box for every share.
        guard floor >= 0.01 else { return [box(shares: max(0, floor)...1)] }
        var boxes: [(lower: [Double], upper: [Double])] = []
        var low = floor
        while low < 1 {
            let high = min(1, low * Self.slabRatio)
            boxes.append(box(shares: low...high))
            low = high
        }
        return boxes
    }

    /// The SQL condition on `palette_color` (its boxes' values bound to `statement`).
    func condition(in statement: inout PostgresStatement) -> String {
        let tests = boxes.map { box in
            "oklab_share <@ cube(\(statement.bind(box.lower))::float8[], \(statement.bind(box.upper))::float8[])"
        }
        return "(" + tests.joined(separator: " OR ") + ")"
    }

    /// The SQL condition that a palette colour (columns `l`, `a`, `b` of `table`) lies within the query's ΔE
    /// of `color`, with a margin for the server's rounding.
    static func withinReach(of color: OklabColor, within: Double, table: String, in statement: inout PostgresStatement) -> String {
        let reach = within / 100 * (1 + 1e-9) + 1e-12
        let l = statement.bind(color.l), a = statement.bind(color.a), b = statement.bind(color.b)
        return "((\(table).l - \(l)) * (\(table).l - \(l)) + (\(table).a - \(a)) * (\(table).a - \(a)) "
            + "+ (\(table).b - \(b)) * (\(table).b - \(b)) <= \(statement.bind(reach * reach)))"
    }

    /// The SQL condition that a palette colour of `palette_color` scores at least `floor` (less a margin for
    /// the server's rounding) for `color`: the region's boxes hold more than that.
    static func scoreAtLeast(_ floor: Double, of color: OklabColor, within: Double, in statement: inout PostgresStatement) -> String {
        let l = statement.bind(color.l), a = statement.bind(color.a), b = statement.bind(color.b)
        let distance = "100 * sqrt((l - \(l)) * (l - \(l)) + (a - \(a)) * (a - \(a)) + (b - \(b)) * (b - \(b)))"
        return "(share * (1 - \(distance) / \(statement.bind(within))) >= \(statement.bind(floor * (1 - 1e-9) - 1e-12)))"
    }
}

/// SQL text and its bound values, built together so that each `$n` names the value bound with it.
struct PostgresStatement {
    var bindings = PostgresBindings()

    /// Binds `value` and returns its placeholder.
    mutating func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
        bindings.append(value)
        return "$\(bindings.count)"
    }
}
