import Foundation
import GRDB
import Processing

extension CatalogRepository {
    /// The stickers with every colour of `query`, best first (see ``ColorQuery`` for the score).
    ///
    /// Candidates come from the `palette_index` R*Tree: a box of ±`within` around the first query colour,
    /// read in bands of decreasing share. A sticker scores at most the share of its matching colour, so
    /// once `limit` stickers score at least a band's lower bound, no sticker in a later band can enter the
    /// results and the search stops. Single-colour searches without EXIF filters read only the R*Tree
    /// until the final `limit` rows.
    public nonisolated func search(_ query: ColorQuery) throws(CatalogError) -> [ColorSearchResult] {
        guard !query.colors.isEmpty, query.limit > 0 else { return [] }
        return try read { db in try ColorSearch(query: query, db: db).indexed() }
    }

    /// The same search without the index: every palette colour is read and compared (a full scan).
    /// The baseline the benchmark measures the index against, and the tests' reference.
    public nonisolated func searchByFullScan(_ query: ColorQuery) throws(CatalogError) -> [ColorSearchResult] {
        guard !query.colors.isEmpty, query.limit > 0 else { return [] }
        return try read { db in try ColorSearch(query: query, db: db).fullScan() }
    }
}

/// One search inside a read transaction.
private struct ColorSearch {
    let query: ColorQuery
    let db: Database

    /// The best match so far of one query colour in one sticker: the palette colour row and its score.
    struct Hit {
        var colorId: Int64
        var distance: Double
        var share: Double
        var score: Double
    }

    /// Share bands, largest first: [0.5, ∞), [0.25, 0.5), ... [0, 1/32). Powers of two are exact in the
    /// R*Tree's 32-bit floats, so each row falls in exactly one band.
    static let bandBounds: [Double] = [0.5, 0.25, 0.125, 0.0625, 0.03125, 0]

    /// Scored stickers: photo id → one hit per query colour.
    private typealias Scored = [Int64: [Hit]]

    func indexed() throws -> [ColorSearchResult] {
        let first = query.colors[0]
        let radius = query.within / 100
        let statement = try db.cachedStatement(sql: """
            SELECT id, photo_id, l_min, l_max, a_min, a_max, b_min, b_max, share_min, share_max FROM palette_index
            WHERE l_max >= ? AND l_min <= ? AND a_max >= ? AND a_min <= ? AND b_max >= ? AND b_min <= ?
              AND share_min >= ? AND share_min < ?
            """)
        let simple = query.colors.count == 1 && !query.hasExifFilter
        var scored: Scored = [:]
        var seen = Set<Int64>()
        var upper = 2.0
        for lower in Self.bandBounds {
            defer { upper = lower }
            var pending = Set<Int64>()
            let rows = try Row.fetchCursor(statement, arguments: [
                first.l - radius, first.l + radius, first.a - radius, first.a + radius,
                first.b - radius, first.b + radius, lower, upper,
            ])
            while let row = try rows.next() {
                let photo: Int64 = row[1]
                if !simple {
                    if !seen.contains(photo) { pending.insert(photo) }
                    continue
                }
                let color = OklabColor(l: mid(row, 2), a: mid(row, 4), b: mid(row, 6))
                let share = mid(row, 8)
                let distance = first.deltaE(color)
                let score = query.score(distance: distance, share: share)
                guard score >= 0 else { continue }
                if score > scored[photo]?[0].score ?? -1 {
                    scored[photo] = [Hit(colorId: row[0], distance: distance, share: share, score: score)]
                }
            }
            if !pending.isEmpty {
                seen.formUnion(pending)
                try evaluate(Array(pending), into: &scored)
            }
            if scored.values.count(where: { Self.score($0) >= lower }) >= query.limit { break }
        }
        return try results(scored)
    }

    func fullScan() throws -> [ColorSearchResult] {
        var perColor: [[Int64: Hit]] = []
        for color in query.colors {
            var best: [Int64: Hit] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT id, photo_id, share, d FROM (
                    SELECT id, photo_id, share, 100 * sqrt((l - ?1) * (l - ?1) + (a - ?2) * (a - ?2) + (b - ?3) * (b - ?3)) AS d
                    FROM palette_color)
                WHERE d <= ?4
                """, arguments: [color.l, color.a, color.b, query.within])
            while let row = try rows.next() {
                let photo: Int64 = row[1]
                let hit = Hit(colorId: row[0], distance: row[3], share: row[2], score: query.score(distance: row[3], share: row[2]))
                if hit.score > best[photo]?.score ?? -1 { best[photo] = hit }
            }
            perColor.append(best)
        }
        var candidates = Set(perColor[0].keys)
        for other in perColor.dropFirst() { candidates.formIntersection(other.keys) }
        if query.hasExifFilter { candidates.formIntersection(try allowed(Array(candidates))) }
        var scored: Scored = [:]
        for photo in candidates { scored[photo] = perColor.map { $0[photo]! } }
        return try results(scored)
    }

    /// Scores `photos` on every query colour from their whole palettes, dropping those that miss a colour
    /// or the EXIF filters.
    private func evaluate(_ photos: [Int64], into scored: inout Scored) throws {
        let kept = query.hasExifFilter ? Array(try allowed(photos)) : photos
        guard !kept.isEmpty else { return }
        var palettes: [Int64: [(id: Int64, color: OklabColor, share: Double)]] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id, photo_id, l, a, b, share FROM palette_color WHERE photo_id IN (\(Self.list(kept)))")
        while let row = try rows.next() {
            palettes[row[1], default: []].append((row[0], OklabColor(l: row[2], a: row[3], b: row[4]), row[5]))
        }
        for (photo, palette) in palettes {
            var hits: [Hit] = []
            for wanted in query.colors {
                let best = palette.map { entry -> Hit in
                    let distance = wanted.deltaE(entry.color)
                    return Hit(colorId: entry.id, distance: distance, share: entry.share, score: query.score(distance: distance, share: entry.share))
                }.max { $0.score < $1.score || ($0.score == $1.score && $0.colorId > $1.colorId) }
                guard let best, best.score >= 0 else { break }
                hits.append(best)
            }
            if hits.count == query.colors.count { scored[photo] = hits }
        }
    }

    /// Which of `photos` pass the EXIF filters (a photo without EXIF passes none).
    private func allowed(_ photos: [Int64]) throws -> Set<Int64> {
        guard !photos.isEmpty else { return [] }
        var conditions = ["photo_id IN (\(Self.list(photos)))"]
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let camera = query.camera {
            let escaped = camera.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            conditions.append("(coalesce(make, '') || ' ' || coalesce(model, '')) LIKE ? ESCAPE '\\'")
            arguments.append("%" + escaped + "%")
        }
        if let after = query.takenAfter {
            conditions.append("taken_at_utc >= ?")
            arguments.append(after)
        }
        if let before = query.takenBefore {
            conditions.append("taken_at_utc < ?")
            arguments.append(before)
        }
        let sql = "SELECT photo_id FROM exif WHERE " + conditions.joined(separator: " AND ")
        return Set(try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)))
    }

    /// The best `limit` of `scored`, with paths, hex and exact distances from `palette_color`.
    private func results(_ scored: Scored) throws -> [ColorSearchResult] {
        let top = scored.sorted { left, right in
            let l = Self.score(left.value), r = Self.score(right.value)
            return l != r ? l > r : left.key < right.key
        }.prefix(query.limit)
        guard !top.isEmpty else { return [] }
        let ids = top.map(\.key)
        let paths = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, path FROM photo WHERE id IN (\(Self.list(ids)))").map {
            ($0[0] as Int64, $0[1] as String)
        })
        let colorIds = top.flatMap { $0.value.map(\.colorId) }
        var colors: [Int64: (hex: String, color: OklabColor, share: Double)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, hex, l, a, b, share FROM palette_color WHERE id IN (\(Self.list(colorIds)))") {
            colors[row[0]] = (row[1], OklabColor(l: row[2], a: row[3], b: row[4]), row[5])
        }
        let results = top.map { photo, hits in
            let matches = zip(query.colors, hits).map { wanted, hit in
                let stored = colors[hit.colorId]
                let distance = stored.map { wanted.deltaE($0.color) } ?? hit.distance
                let share = stored?.share ?? hit.share
                return ColorSearchResult.Match(hex: stored?.hex ?? "", share: share, distance: distance, score: max(query.score(distance: distance, share: share), 0))
            }
            return ColorSearchResult(id: photo, path: paths[photo] ?? "", score: matches.map(\.score).min() ?? 0, matches: matches)
        }
        return results.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
    }

    private static func score(_ hits: [Hit]) -> Double {
        hits.map(\.score).min() ?? -1
    }

    /// The middle of an R*Tree dimension (min and max are the stored value rounded down and up to float).
    private func mid(_ row: Row, _ index: Int) -> Double {
        ((row[index] as Double) + (row[index + 1] as Double)) / 2
    }

    /// Ids as an SQL list: integers only, so nothing to escape, and no bound-variable limit.
    private static func list(_ ids: [Int64]) -> String {
        ids.map(String.init).joined(separator: ",")
    }
}
