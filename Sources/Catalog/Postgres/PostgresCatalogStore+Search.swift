import Foundation
import PostgresNIO
import Processing

extension PostgresCatalogStore {
    /// The stickers with every colour of `query`, best first: the same entries, order and scores as the
    /// SQLite catalog's search.
    ///
    /// Best-first over the `cube` GiST index of `oklab_share` (l, a, b and the share scaled by
    /// `PostgresColorSearch.shareScale`): for each query colour, `ORDER BY oklab_share <=> point` (a KNN
    /// scan by Chebyshev distance to the colour at full share) hands out palette colours that are near
    /// *and* large first. A colour not handed out yet, at distance `reach` or more, scores at most
    /// `1 − reach / horizon` (its ΔE or its share gives that away), so a sticker none of whose colours
    /// was handed out scores at most that for the colour walked farthest. The scans stop once `limit`
    /// stickers score more. Met stickers are scored exactly in Swift from their whole palettes, with the
    /// SQLite search's arithmetic (ΔE from the stored doubles, the lowest colour id among equal scores).
    public func search(_ query: ColorQuery) async throws(CatalogError) -> [ColorSearchResult] {
        guard !query.colors.isEmpty, query.limit > 0 else { return [] }
        return try await readTransaction { connection in
            try await PostgresColorSearch(query: query, connection: connection).indexed()
        }
    }

    /// The same search scoring every sticker that has a colour within reach (no KNN ordering): the reference.
    public func searchByFullScan(_ query: ColorQuery) async throws(CatalogError) -> [ColorSearchResult] {
        guard !query.colors.isEmpty, query.limit > 0 else { return [] }
        return try await readTransaction { connection in
            try await PostgresColorSearch(query: query, connection: connection).fullScan()
        }
    }
}

/// One search inside a read transaction.
private struct PostgresColorSearch {
    let query: ColorQuery
    let connection: PostgresConnection

    struct Hit {
        var hex: String
        var distance: Double
        var share: Double
        var score: Double
    }

    /// The scale of the share axis of `oklab_share` (Migrations/PostgreSQL/0005_palette_cell.sql): ΔE 12,
    /// the default `--within`, in Oklab units, so that a share and a distance weigh alike at that reach.
    static let shareScale = 0.12

    func indexed() async throws -> [ColorSearchResult] {
        // Every colour within ΔE `within` of a query colour lies within `horizon` of its point, whatever
        // its share: a scan that passes `horizon` has handed out every colour that can match.
        let horizon = max(query.within / 100, Self.shareScale)
        var evaluated: [Int64: [Hit]?] = [:]
        var rowLimit = max(query.limit * 8, 256)
        while true {
            var fresh: [Int64] = []
            var farthest = 0.0
            var complete = false
            for wanted in query.colors {
                let rows = try await connection.rows("""
                    SELECT photo_id, oklab_share <=> cube(ARRAY[$1, $2, $3, $4]::float8[]) AS d FROM palette_color
                    ORDER BY oklab_share <=> cube(ARRAY[$1, $2, $3, $4]::float8[]) LIMIT $5
                    """, binds(wanted.l, wanted.a, wanted.b, Self.shareScale, rowLimit))
                var reached = 0.0
                var beyond = false
                for row in rows {
                    let distance: Double = try row.value("d")
                    if distance > horizon * (1 + 1e-9) { beyond = true; break }
                    reached = distance
                    let photo: Int64 = try row.value("photo_id")
                    if evaluated[photo] == nil {
                        evaluated[photo] = .some(nil)
                        fresh.append(photo)
                    }
                }
                farthest = max(farthest, reached)
                if beyond || rows.count < rowLimit { complete = true }
            }
            try await evaluate(fresh, into: &evaluated)
            if complete { break }
            let scores = evaluated.values.compactMap { $0.map(Self.score) }.sorted(by: >)
            // A sticker not met scores at most this (a margin for the server's and Swift's rounding).
            let bound = 1 - farthest / horizon + 1e-9
            if scores.count >= query.limit && scores[query.limit - 1] > bound { break }
            rowLimit *= 4
        }
        return try await results(evaluated.compactMapValues { $0 })
    }

    func fullScan() async throws -> [ColorSearchResult] {
        // Every sticker with the first colour within reach (an R-tree-style box query on the same index),
        // scored as the indexed search scores.
        let wanted = query.colors[0]
        let rows = try await connection.rows("""
            SELECT DISTINCT photo_id FROM palette_color
            WHERE oklab <@ cube_enlarge(cube(ARRAY[$1, $2, $3]::float8[]), $4, 3)
            """, binds(wanted.l, wanted.a, wanted.b, query.within / 100 * (1 + 1e-9)))
        var evaluated: [Int64: [Hit]?] = [:]
        try await evaluate(try rows.map { try $0.value("photo_id") }, into: &evaluated)
        return try await results(evaluated.compactMapValues { $0 })
    }

    /// Scores `photos` exactly from their whole palettes, through the EXIF filters. nil: rejected.
    private func evaluate(_ photos: [Int64], into evaluated: inout [Int64: [Hit]?]) async throws {
        guard !photos.isEmpty else { return }
        var kept = photos
        if query.hasExifFilter {
            let allowed = try await allowed(kept)
            for photo in kept where !allowed.contains(photo) { evaluated[photo] = .some(nil) }
            kept = kept.filter(allowed.contains)
        }
        guard !kept.isEmpty else { return }
        let rows = try await connection.rows("""
            SELECT photo_id, hex, l, a, b, share FROM palette_color WHERE photo_id = ANY($1) ORDER BY photo_id, id
            """, binds(kept))
        var palettes: [Int64: [(hex: String, color: OklabColor, share: Double)]] = [:]
        for row in rows {
            palettes[try row.value("photo_id"), default: []].append((
                try row.value("hex"),
                OklabColor(l: try row.value("l"), a: try row.value("a"), b: try row.value("b")),
                try row.value("share")))
        }
        for (photo, palette) in palettes {
            var hits: [Hit] = []
            for wanted in query.colors {
                var best: Hit?
                for entry in palette {
                    let distance = wanted.deltaE(entry.color)
                    let score = query.score(distance: distance, share: entry.share)
                    if score > best?.score ?? -.infinity {
                        best = Hit(hex: entry.hex, distance: distance, share: entry.share, score: score)
                    }
                }
                guard let best, best.score >= 0 else { break }
                hits.append(best)
            }
            evaluated[photo] = hits.count == query.colors.count ? hits : .some(nil)
        }
    }

    /// Which of `photos` pass the EXIF filters (a photo without EXIF passes none).
    private func allowed(_ photos: [Int64]) async throws -> Set<Int64> {
        var conditions = ["photo_id = ANY($1)"]
        var bindings = binds(photos)
        if let camera = query.camera {
            let escaped = camera.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            bindings.append("%" + escaped + "%")
            conditions.append("(coalesce(make, '') || ' ' || coalesce(model, '')) ILIKE $\(bindings.count) ESCAPE '\\'")
        }
        if let after = query.takenAfter {
            bindings.append(after)
            conditions.append("taken_at_utc COLLATE \"C\" >= $\(bindings.count)")
        }
        if let before = query.takenBefore {
            bindings.append(before)
            conditions.append("taken_at_utc COLLATE \"C\" < $\(bindings.count)")
        }
        let rows = try await connection.rows("SELECT photo_id FROM exif WHERE " + conditions.joined(separator: " AND "), bindings)
        return Set(try rows.map { try $0.value("photo_id", as: Int64.self) })
    }

    /// The best `limit` of `scored`, with their paths, sorted as the SQLite search sorts.
    private func results(_ scored: [Int64: [Hit]]) async throws -> [ColorSearchResult] {
        let top = scored.sorted { left, right in
            let l = Self.score(left.value), r = Self.score(right.value)
            return l != r ? l > r : left.key < right.key
        }.prefix(query.limit)
        guard !top.isEmpty else { return [] }
        var paths: [Int64: String] = [:]
        for row in try await connection.rows("SELECT id, path FROM photo WHERE id = ANY($1)", binds(top.map(\.key))) {
            paths[try row.value("id")] = try row.value("path")
        }
        let results = top.map { photo, hits in
            let matches = hits.map { hit in
                ColorSearchResult.Match(hex: hit.hex, share: hit.share, distance: hit.distance, score: max(hit.score, 0))
            }
            return ColorSearchResult(id: photo, path: paths[photo] ?? "", score: matches.map(\.score).min() ?? 0, matches: matches)
        }
        return results.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
    }

    private static func score(_ hits: [Hit]) -> Double {
        hits.map(\.score).min() ?? -1
    }
}
