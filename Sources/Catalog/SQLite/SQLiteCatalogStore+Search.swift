import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// The stickers with every colour of `query`, best first (see ``ColorQuery`` for the score).
    ///
    /// Best-first over the `palette_index` R*Tree: SQLite's R*Tree hands out one query colour's palette
    /// colours by falling upper bound of their score (``PaletteScoreQuery``), and each new sticker met is
    /// scored exactly from its palette (and EXIF). Every sticker not met yet scores at most the next upper
    /// bound, so the search stops once `limit` stickers score more. With several colours every colour is
    /// read together from `palette_cell` (``PaletteCellSearch``); for a very wide `within` (too many cells),
    /// the R*Tree is followed for the rarest colour (whose bound falls fastest) and the others are checked
    /// on the palettes. With a date filter
    /// that few photos pass, those photos are scored instead. The results are the full scan's
    /// (``searchByFullScan(_:)``).
    public nonisolated func search(_ query: ColorQuery) throws(CatalogError) -> [ColorSearchResult] {
        guard !query.colors.isEmpty, query.limit > 0 else { return [] }
        return try read { db in try ColorSearch(query: query, db: db).indexed() }
    }

    /// The same search as ``search(_:)`` without `palette_cell`: several colours follow the R*Tree for the
    /// rarest one and check the others on the palettes. The benchmark's and the tests' second reference.
    public nonisolated func searchFollowingRarestColor(_ query: ColorQuery) throws(CatalogError) -> [ColorSearchResult] {
        guard !query.colors.isEmpty, query.limit > 0 else { return [] }
        return try read { db in try ColorSearch(query: query, db: db, severalColors: .rarestColor).indexed() }
    }

    /// The same search as ``search(_:)`` with several colours read from `palette_cell` row by row, never
    /// from `palette_pack`: the search before the pack, for the benchmark and the tests.
    public nonisolated func searchReadingCellRows(_ query: ColorQuery) throws(CatalogError) -> [ColorSearchResult] {
        guard !query.colors.isEmpty, query.limit > 0 else { return [] }
        return try read { db in try ColorSearch(query: query, db: db, severalColors: .cells(.rows)).indexed() }
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
    /// How a search for several colours finds its candidates.
    enum SeveralColors {
        /// Every colour read together from `palette_cell` (``PaletteCellSearch``), its cells from `source`.
        case cells(PaletteCellSearch.Source)
        /// The R*Tree followed for the rarest colour, the others checked on the palettes.
        case rarestColor
    }

    var severalColors = SeveralColors.cells(.packWhenCurrent)

    /// The best match so far of one query colour in one sticker: the palette colour row and its score.
    struct Hit {
        var colorId: Int64
        var distance: Double
        var share: Double
        var score: Double
    }

    /// Scored stickers: photo id → one hit per query colour.
    private typealias Scored = [Int64: [Hit]]

    func indexed() throws -> [ColorSearchResult] {
        var evaluated: [Int64: [Hit]?] = [:]
        if let photos = try exifFirstCandidates() {
            try evaluate(photos, into: &evaluated)
            return try results(evaluated.compactMapValues { $0 })
        }
        if case .cells(let source) = severalColors, query.colors.count > 1,
           let finals = try PaletteCellSearch(query: query, db: db, source: source).search(allowed: allowed) {
            return try results(finals.mapValues { hits in
                hits.map { Hit(colorId: $0.colorId, distance: $0.distance, share: $0.share, score: $0.score) }
            })
        }
        var pending: [Int64] = []
        var batch = max(query.limit, 16)
        // The `limit`-th best exact score so far (-1 until there are `limit`).
        var kth = -1.0
        func flush() throws {
            guard !pending.isEmpty else { return }
            try evaluate(pending, into: &evaluated)
            pending.removeAll(keepingCapacity: true)
            batch = min(batch * 2, 2048)
            let scores = evaluated.values.compactMap { $0.map(Self.score) }
            if scores.count >= query.limit {
                kth = scores.sorted(by: >)[query.limit - 1]
            }
        }
        func consider(_ photo: Int64) throws {
            guard evaluated[photo] == nil else { return }
            evaluated[photo] = .some(nil)  // placeholder until evaluated: seen once is enough
            pending.append(photo)
            if pending.count >= batch { try flush() }
        }
        // With several colours, the index is followed for the rarest one: the colour whose bound falls
        // fastest, i.e. the lowest bound after `probeRows` rows (or fewer rows than that at all).
        var driver = 0
        if query.colors.count > 1 {
            var rarest = (count: Int.max, bound: Double.infinity)
            for (index, color) in query.colors.enumerated() {
                let stream = try PaletteStream(db: db, color: color, within: query.within, floor: Self.probeFloor)
                var count = 0
                var bound = Double.infinity
                while count < Self.probeRows, let row = try stream.next() {
                    count += 1
                    bound = row.bound
                }
                if count < rarest.count || (count == rarest.count && bound < rarest.bound) {
                    rarest = (count, bound)
                    driver = index
                }
            }
        }
        // Every unseen sticker scores at most the driver's next upper bound on the driver's colour, so
        // once that bound falls below the `limit`-th exact score, no unseen sticker can enter the results.
        // The R*Tree is asked with falling floors (rows already seen are skipped); a floor's rows all
        // read, every unseen sticker scores below it.
        for floor in Self.floors {
            let stream = try PaletteStream(db: db, color: query.colors[driver], within: query.within, floor: floor)
            var stopped = false
            while let row = try stream.next() {
                if row.bound < kth { stopped = true; break }
                try consider(row.photo)
            }
            try flush()
            if stopped || kth >= floor { break }
        }
        try flush()
        return try results(evaluated.compactMapValues { $0 })
    }

    /// Choosing the rarest colour: rows read per colour, down to this score at most.
    static let probeRows = 64
    static let probeFloor = 0.05
    /// The R*Tree's floors, highest first; the last (0) is the whole `within` ball.
    static let floors = [0.45, 0.3, 0.2, 0.13, 0.08, 0.04, 0]

    /// With a date filter that few photos pass, those photos (to be scored one by one) rather than the
    /// colour index: following the index would read ~limit × total / passing stickers first. Nil when the
    /// filter is not selective enough (or there is no date filter).
    private func exifFirstCandidates() throws -> [Int64]? {
        guard query.takenAfter != nil || query.takenBefore != nil else { return nil }
        let total = try Int64.fetchOne(db, sql: "SELECT max(id) FROM photo") ?? 0
        // Scoring n photos directly costs about n; the index about limit × total / n: equal at √(limit × total).
        let cap = min(max(Int((Double(query.limit) * Double(total)).squareRoot()), 1_000), 20_000)
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        appendDateConditions(to: &conditions, arguments: &arguments)
        arguments.append(cap + 1)
        let photos = try Int64.fetchAll(db, sql: """
            SELECT photo_id FROM exif INDEXED BY exif_taken_at_utc WHERE \(conditions.joined(separator: " AND ")) LIMIT ?
            """, arguments: StatementArguments(arguments))
        return photos.count <= cap ? photos : nil
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

    /// Scores `photos` exactly: through the EXIF filters, then on every query colour from their whole
    /// palettes in `palette_color` (the R*Tree's floats only order the search). nil: rejected.
    private func evaluate(_ photos: [Int64], into evaluated: inout [Int64: [Hit]?]) throws {
        guard !photos.isEmpty else { return }
        var kept = photos
        if query.hasExifFilter {
            let allowed = try allowed(kept)
            for photo in kept where !allowed.contains(photo) { evaluated[photo] = .some(nil) }
            kept = kept.filter(allowed.contains)
        }
        guard !kept.isEmpty else { return }
        let rows = try PaletteScoreQuery.palettes(of: kept, db)
        var start = 0
        while start < rows.count {
            let photo = rows[start].photo
            var end = start + 1
            while end < rows.count && rows[end].photo == photo { end += 1 }
            var hits: [Hit] = []
            for wanted in query.colors {
                // The best palette colour for this query colour (the lowest id among equals, as the scan).
                var best: Hit?
                for entry in rows[start..<end] {
                    let distance = wanted.deltaE(entry.color)
                    let score = query.score(distance: distance, share: entry.share)
                    if score > best?.score ?? -.infinity {
                        best = Hit(colorId: entry.id, distance: distance, share: entry.share, score: score)
                    }
                }
                guard let best, best.score >= 0 else { break }
                hits.append(best)
            }
            evaluated[photo] = hits.count == query.colors.count ? hits : .some(nil)
            start = end
        }
    }

    /// The query's date window as conditions on `exif.taken_at_utc`.
    private func appendDateConditions(to conditions: inout [String], arguments: inout [(any DatabaseValueConvertible)?]) {
        if let after = query.takenAfter {
            conditions.append("taken_at_utc >= ?")
            arguments.append(after)
        }
        if let before = query.takenBefore {
            conditions.append("taken_at_utc < ?")
            arguments.append(before)
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
        appendDateConditions(to: &conditions, arguments: &arguments)
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

    /// Ids as an SQL list: integers only, so nothing to escape, and no bound-variable limit.
    private static func list(_ ids: [Int64]) -> String {
        ids.map(String.init).joined(separator: ",")
    }
}

extension SQLiteCatalogStore {
    /// Bytes used by each table and index (SQLite's dbstat), for benchmarks' size figures.
    public nonisolated func tableSizes() throws(CatalogError) -> [String: Int64] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").map {
                ($0[0] as String, $0[1] as Int64)
            })
        }
    }
}
