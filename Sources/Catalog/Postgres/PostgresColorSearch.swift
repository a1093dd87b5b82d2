import PostgresNIO
import Processing

/// One colour search inside a read transaction, with the SQLite search's results (entries, order, scores,
/// matched colours).
///
/// The search reads, for a falling score floor, every palette colour that can score the floor
/// (``PostgresScoreRegion``: range queries `<@` on the cube GiST index of colour and share). After a
/// floor's read, a sticker whose score reaches the floor is scored exactly (its deciding colours were all
/// read) and every other sticker scores less; once `limit` stickers reach it (and pass the EXIF filters),
/// they are the results. Otherwise the next floor is lower (a fixed fraction of it, or the `limit`-th
/// best score met so far if higher: that one is reached for sure). One colour is scored from the colours read; with several, the rarest
/// colour's region is read and each sticker met is scored from its whole palette, on the server's side
/// only if it has every other colour within reach.
struct PostgresColorSearch {
    let query: ColorQuery
    let connection: PostgresConnection

    /// The best palette colour of a sticker for one query colour.
    struct Hit {
        var colorId: Int64
        var distance: Double
        var share: Double
        var score: Double
    }

    /// A palette colour as read.
    struct Color {
        var id: Int64
        var photo: Int64
        var oklab: OklabColor
        var share: Double
    }

    /// The first floor: single colours' 20th best scores sit near 0.45 at 1,000,000 stickers, and a
    /// floor above the answer costs one small read.
    static let firstFloor = 0.5
    static let firstFloorSeveralColors = 0.3
    /// A floor not reached is followed by this fraction of it (or the `limit`-th best score met, if
    /// higher, which is reached for sure); below `lowestFloor`, by 0: every colour within reach.
    static let floorRatio = 0.6
    static let lowestFloor = 0.02

    func indexed() async throws -> [ColorSearchResult] {
        // The planner's estimates for cube boxes are fixed guesses (5,000 rows a box), so a few slabs pass the
        // JIT threshold: compiling took 0.4 s where the query itself takes milliseconds.
        try await connection.run("SET LOCAL jit = off")
        let driver = query.colors.count > 1 ? try await rarestColor() : 0
        var allowed: [Int64: Bool] = [:]
        var floor = query.colors.count > 1 ? Self.firstFloorSeveralColors : Self.firstFloor
        while true {
            let scored = query.colors.count == 1 ? try await readSingle(floor: floor) : try await readSeveral(driver: driver, floor: floor)
            var kept = scored
            if query.hasExifFilter {
                let unknown = scored.keys.filter { allowed[$0] == nil }
                if !unknown.isEmpty {
                    let passing = try await self.allowed(unknown)
                    for photo in unknown { allowed[photo] = passing.contains(photo) }
                }
                kept = scored.filter { allowed[$0.key] == true }
            }
            let scores = kept.values.map(Self.score).sorted(by: >)
            let reached = scores.prefix { $0 >= floor }.count
            if reached >= query.limit || floor == 0 {
                return try await results(kept.filter { Self.score($0.value) >= floor })
            }
            // Every sticker scoring at least the `limit`-th best met is in that floor's region.
            let surely = scores.count >= query.limit ? scores[query.limit - 1] : 0
            let next = max(surely, floor * Self.floorRatio)
            floor = next < Self.lowestFloor ? 0 : next
        }
    }

    /// One colour: every palette colour scoring `floor` or more, and others, each sticker scored by its
    /// best colour read (exact for a sticker scoring at least `floor`; a lower bound for the others).
    private func readSingle(floor: Double) async throws -> [Int64: [Hit]] {
        let wanted = query.colors[0]
        var statement = PostgresStatement()
        let region = PostgresScoreRegion(color: wanted, within: query.within, floor: floor).condition(in: &statement)
        let reach = PostgresScoreRegion.withinReach(of: wanted, within: query.within, table: "palette_color", in: &statement)
        let colors = try await connection.decodedRows(
            "SELECT id, photo_id, l, a, b, share FROM palette_color WHERE \(region) AND \(reach)", statement.bindings
        ) { row in
            let (id, photo, l, a, b, share) = try row.decode((Int64, Int64, Double, Double, Double, Double).self)
            return Color(id: id, photo: photo, oklab: OklabColor(l: l, a: a, b: b), share: share)
        }
        var best: [Int64: Hit] = [:]
        for color in colors {
            let hit = hit(wanted, color)
            guard hit.score >= 0 else { continue }
            if let current = best[color.photo], !Self.better(hit, than: current) { continue }
            best[color.photo] = hit
        }
        return best.mapValues { [$0] }
    }

    /// Several colours: the stickers with a colour of the `driver` query colour scoring `floor` or more
    /// that have every other query colour within reach, scored exactly from their palettes.
    private func readSeveral(driver: Int, floor: Double) async throws -> [Int64: [Hit]] {
        var statement = PostgresStatement()
        let wanted = query.colors[driver]
        let region = PostgresScoreRegion(color: wanted, within: query.within, floor: floor).condition(in: &statement)
        let reach = PostgresScoreRegion.scoreAtLeast(floor, of: wanted, within: query.within, in: &statement)
        let others = query.colors.indices.filter { $0 != driver }.map { index in
            "bool_or(" + PostgresScoreRegion.withinReach(of: query.colors[index], within: query.within, table: "p", in: &statement) + ")"
        }
        // LATERAL: each met sticker's palette through its photo_id index, never a scan of the table.
        let sql = """
            SELECT met.photo_id, palette.ids, palette.ls, palette.a_values, palette.b_values, palette.shares
            FROM (SELECT DISTINCT photo_id FROM palette_color WHERE \(region) AND \(reach)) met
            CROSS JOIN LATERAL (
                SELECT array_agg(p.id ORDER BY p.id) AS ids, array_agg(p.l ORDER BY p.id) AS ls,
                       array_agg(p.a ORDER BY p.id) AS a_values, array_agg(p.b ORDER BY p.id) AS b_values,
                       array_agg(p.share ORDER BY p.id) AS shares
                FROM palette_color p WHERE p.photo_id = met.photo_id
                HAVING \(others.joined(separator: " AND "))
            ) palette
            """
        let palettes = try await connection.decodedRows(sql, statement.bindings) { row in
            let (photo, ids, ls, aValues, bValues, shares) = try row.decode((Int64, [Int64], [Double], [Double], [Double], [Double]).self)
            return ids.indices.map {
                Color(id: ids[$0], photo: photo, oklab: OklabColor(l: ls[$0], a: aValues[$0], b: bValues[$0]), share: shares[$0])
            }
        }
        var scored: [Int64: [Hit]] = [:]
        for palette in palettes {
            if let photo = palette.first?.photo, let hits = score(palette) { scored[photo] = hits }
        }
        return scored
    }

    /// Which query colour's region holds the fewest palette colours near the top (counted at the first
    /// floor, in one statement): the one to read, since a sticker must reach the floor in every colour.
    private func rarestColor() async throws -> Int {
        var statement = PostgresStatement()
        let counts = query.colors.map { color in
            // At most the default reach: a wide `--within` would count a large part of the table.
            let within = min(query.within, ColorQuery.defaultWithin)
            let region = PostgresScoreRegion(color: color, within: within, floor: Self.firstFloor).condition(in: &statement)
            return "(SELECT count(*) FROM palette_color WHERE \(region))"
        }
        let rows = try await connection.decodedRows(
            "SELECT ARRAY[" + counts.joined(separator: ", ") + "]", statement.bindings
        ) { row in try row.decode([Int64].self) }
        let sizes = rows.first ?? []
        return sizes.indices.min { sizes[$0] < sizes[$1] } ?? 0
    }

    /// Scores one sticker from its whole palette (in id order): its best colour for each query colour,
    /// or nil if one is out of reach.
    func score(_ palette: [Color]) -> [Hit]? {
        var hits: [Hit] = []
        for wanted in query.colors {
            var best: Hit?
            for color in palette {
                let hit = hit(wanted, color)
                if best.map({ Self.better(hit, than: $0) }) ?? true { best = hit }
            }
            guard let best, best.score >= 0 else { return nil }
            hits.append(best)
        }
        return hits
    }

    private func hit(_ wanted: OklabColor, _ color: Color) -> Hit {
        let distance = wanted.deltaE(color.oklab)
        return Hit(colorId: color.id, distance: distance, share: color.share, score: query.score(distance: distance, share: color.share))
    }

    /// The higher score, and among equal scores the lower palette colour id (as the full scan).
    private static func better(_ hit: Hit, than other: Hit) -> Bool {
        hit.score != other.score ? hit.score > other.score : hit.colorId < other.colorId
    }

    /// Which of `photos` pass the EXIF filters (a photo without EXIF passes none).
    func allowed(_ photos: [Int64]) async throws -> Set<Int64> {
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
        let rows = try await connection.decodedRows("SELECT photo_id FROM exif WHERE " + conditions.joined(separator: " AND "), bindings) { row in
            try row.decode(Int64.self)
        }
        return Set(rows)
    }

    /// The best `limit` of `scored`, with their paths and matched colours, sorted as the SQLite search sorts.
    func results(_ scored: [Int64: [Hit]]) async throws -> [ColorSearchResult] {
        let top = scored.sorted { left, right in
            let l = Self.score(left.value), r = Self.score(right.value)
            return l != r ? l > r : left.key < right.key
        }.prefix(query.limit)
        guard !top.isEmpty else { return [] }
        // The paths and the matched colours' hex in one round trip.
        let rows = try await connection.decodedRows("""
            SELECT false, id, path FROM photo WHERE id = ANY($1)
            UNION ALL SELECT true, id, hex FROM palette_color WHERE id = ANY($2)
            """, binds(top.map(\.key), top.flatMap { $0.value.map(\.colorId) })
        ) { row in try row.decode((Bool, Int64, String).self) }
        var paths: [Int64: String] = [:]
        var hexes: [Int64: String] = [:]
        for (isColor, id, text) in rows {
            if isColor { hexes[id] = text } else { paths[id] = text }
        }
        let results = top.map { photo, hits in
            let matches = hits.map { hit in
                ColorSearchResult.Match(hex: hexes[hit.colorId] ?? "", share: hit.share, distance: hit.distance, score: max(hit.score, 0))
            }
            return ColorSearchResult(id: photo, path: paths[photo] ?? "", score: matches.map(\.score).min() ?? 0, matches: matches)
        }
        return results.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
    }

    static func score(_ hits: [Hit]) -> Double {
        hits.map(\.score).min() ?? -1
    }

    /// The reference: every sticker with the first query colour within reach (a sequential scan: the
    /// 3-D `oklab` column has had no index since schema 5), scored from its whole palette.
    func fullScan() async throws -> [ColorSearchResult] {
        let wanted = query.colors[0]
        var photos = try await connection.decodedRows("""
            SELECT DISTINCT photo_id FROM palette_color
            WHERE oklab <@ cube_enlarge(cube(ARRAY[$1, $2, $3]::float8[]), $4, 3)
            """, binds(wanted.l, wanted.a, wanted.b, query.within / 100 * (1 + 1e-9))
        ) { row in try row.decode(Int64.self) }
        if query.hasExifFilter {
            let passing = try await allowed(photos)
            photos = photos.filter(passing.contains)
        }
        let colors = try await connection.decodedRows(
            "SELECT id, photo_id, l, a, b, share FROM palette_color WHERE photo_id = ANY($1) ORDER BY photo_id, id", binds(photos)
        ) { row in
            let (id, photo, l, a, b, share) = try row.decode((Int64, Int64, Double, Double, Double, Double).self)
            return Color(id: id, photo: photo, oklab: OklabColor(l: l, a: a, b: b), share: share)
        }
        var scored: [Int64: [Hit]] = [:]
        var start = 0
        while start < colors.count {
            var end = start + 1
            while end < colors.count && colors[end].photo == colors[start].photo { end += 1 }
            if let hits = score(Array(colors[start..<end])) { scored[colors[start].photo] = hits }
            start = end
        }
        return try await results(scored)
    }
}

extension PostgresConnection {
    /// The rows of a statement, each decoded by `decode` as it arrives (no random-access copy of the row).
    func decodedRows<T: Sendable>(
        _ sql: String, _ binds: PostgresBindings, _ decode: @escaping @Sendable (PostgresRow) throws -> T
    ) async throws -> [T] {
        let connection = self
        return try await Task {
            var values: [T] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: PostgresConnector.silentLogger) {
                values.append(try decode(row))
            }
            return values
        }.value
    }
}
