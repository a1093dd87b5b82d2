import Foundation
import GRDB
import Processing

extension CatalogRepository {
    /// The stickers with every colour of `query`, best first (see ``ColorQuery`` for the score).
    ///
    /// Candidates come from the `palette_index` R*Tree, asked with a falling score threshold t: a colour
    /// scoring at least t has a share of at least t and lies within `within × (1 − t)` of the query colour
    /// (share ≤ 1), so a 4-D box (Oklab ± that radius, share ≥ t) holds every one. Once `limit` stickers
    /// score t or more, no unseen sticker can enter the results and the search stops; the last threshold
    /// (0) is the whole `within` box. Single-colour searches without EXIF filters read only the R*Tree
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

    /// Score thresholds, highest first; each is exact in the R*Tree's 32-bit floats (stored values are
    /// rounded down for `share_min`), so `share_min >= t` finds every share of at least t.
    static let thresholds: [Double] = [0.9, 0.8, 0.7, 0.6, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0]
        .map { Double(Float($0)) }

    /// Scored stickers: photo id → one hit per query colour.
    private typealias Scored = [Int64: [Hit]]

    func indexed() throws -> [ColorSearchResult] {
        let first = query.colors[0]
        // Best row-level hit of the first colour per sticker, from the R*Tree alone.
        var firstHits: [Int64: Hit] = [:]
        // Stickers scored exactly (nil: rejected: a colour missing or the EXIF filters failed).
        var evaluated: [Int64: [Hit]?] = [:]
        for threshold in Self.thresholds {
            let radius = query.within / 100 * (1 - threshold)
            let rows = try Row.fetchCursor(try boxStatement(photoOnly: false), arguments: box(first, radius: radius, threshold: threshold))
            while let row = try rows.next() {
                let photo: Int64 = row[1]
                let share = mid(row, 8)
                let distance = first.deltaE(OklabColor(l: mid(row, 2), a: mid(row, 4), b: mid(row, 6)))
                let score = query.score(distance: distance, share: share)
                if score >= 0, score > firstHits[photo]?.score ?? -1 {
                    firstHits[photo] = Hit(colorId: row[0], distance: distance, share: share, score: score)
                }
            }
            // A sticker scoring `threshold` or more has every colour in its box: the other colours' boxes
            // narrow the candidates before any palette is read.
            var others: [Set<Int64>] = []
            for color in query.colors.dropFirst() {
                others.append(Set(try Int64.fetchAll(try boxStatement(photoOnly: true), arguments: box(color, radius: radius, threshold: threshold))))
            }
            let due = firstHits.filter { photo, hit in
                hit.score >= threshold && evaluated[photo] == nil && others.allSatisfy { $0.contains(photo) }
            }
            try evaluate(due, into: &evaluated)
            if evaluated.values.count(where: { ($0.map(Self.score) ?? -1) >= threshold }) >= query.limit { break }
        }
        return try results(evaluated.compactMapValues { $0 })
    }

    /// The R*Tree rows in a box of `radius` around `color` with a share of at least `threshold`.
    private func boxStatement(photoOnly: Bool) throws -> Statement {
        try db.cachedStatement(sql: """
            SELECT \(photoOnly ? "DISTINCT photo_id" : "id, photo_id, l_min, l_max, a_min, a_max, b_min, b_max, share_min, share_max")
            FROM palette_index
            WHERE l_max >= ? AND l_min <= ? AND a_max >= ? AND a_min <= ? AND b_max >= ? AND b_min <= ? AND share_min >= ?
            """)
    }

    private func box(_ color: OklabColor, radius: Double, threshold: Double) -> StatementArguments {
        [color.l - radius, color.l + radius, color.a - radius, color.a + radius, color.b - radius, color.b + radius, threshold]
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

    /// Scores `due` stickers exactly: through the EXIF filters, then (several colours) on every query
    /// colour from their whole palettes. A single colour's row hit is already exact.
    private func evaluate(_ due: [Int64: Hit], into evaluated: inout [Int64: [Hit]?]) throws {
        guard !due.isEmpty else { return }
        var kept = Array(due.keys)
        if query.hasExifFilter {
            let allowed = try allowed(kept)
            for photo in kept where !allowed.contains(photo) { evaluated[photo] = .some(nil) }
            kept = kept.filter(allowed.contains)
        }
        guard query.colors.count > 1 else {
            for photo in kept { evaluated[photo] = [due[photo]!] }
            return
        }
        guard !kept.isEmpty else { return }
        var palettes: [Int64: [(id: Int64, color: OklabColor, share: Double)]] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id, photo_id, l, a, b, share FROM palette_color WHERE photo_id IN (\(Self.list(kept)))")
        while let row = try rows.next() {
            palettes[row[1], default: []].append((row[0], OklabColor(l: row[2], a: row[3], b: row[4]), row[5]))
        }
        for photo in kept {
            var hits: [Hit] = []
            for wanted in query.colors {
                let best = (palettes[photo] ?? []).map { entry -> Hit in
                    let distance = wanted.deltaE(entry.color)
                    return Hit(colorId: entry.id, distance: distance, share: entry.share, score: query.score(distance: distance, share: entry.share))
                }.max { $0.score < $1.score || ($0.score == $1.score && $0.colorId > $1.colorId) }
                guard let best, best.score >= 0 else { break }
                hits.append(best)
            }
            evaluated[photo] = hits.count == query.colors.count ? hits : .some(nil)
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

extension CatalogRepository {
    /// Bytes used by each table and index (SQLite's dbstat), for benchmarks' size figures.
    public nonisolated func tableSizes() throws(CatalogError) -> [String: Int64] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").map {
                ($0[0] as String, $0[1] as Int64)
            })
        }
    }
}
