import GRDB
import Processing

/// The search with several colours over `palette_cell` (migration 0005): a threshold algorithm over
/// one stream of palette colours per query colour, all read together by falling level.
///
/// A sticker's score is its weakest colour's, so a sticker scoring τ or more has, for every query
/// colour, a palette colour scoring τ or more. Each round lowers τ (× 0.8, or at once to the score that
/// `limit` stickers met in every colour already reach, when that is higher) and reads, for every query
/// colour, every palette colour whose cell's bound reaches τ (share × (1 − the cell's nearest distance /
/// within)) that earlier rounds did not read: each cell is a range of one B-tree sorted by share, so a
/// round is one seek a cell and sequential rows, and no row is read twice. The rows come from
/// `palette_pack` (``PalettePackReader``: a band of share at a time, one B-tree step for tens of rows)
/// when it is current, else from `palette_cell` row by row (``PaletteCellReader``); a band brings some
/// rows scoring below the level early, and they wait until a round's level reaches them. After a round every sticker
/// scoring τ or more has all its best colours read, so its score is exact ("final"); once `limit` final
/// stickers pass the filters, no other sticker can enter the results. Following one colour and looking
/// the others up in each sticker's palette (the R*Tree search) costs a palette lookup per sticker met;
/// here the other colours' scores arrive in their own streams at the price of a sequential row each.
struct PaletteCellSearch {
    /// One query colour's best palette colour in a sticker.
    struct Hit {
        var colorId: Int64
        var distance: Double
        var share: Double
        var score: Double
    }

    /// The cells near one query colour that a search reads, with where each read stopped.
    private struct Cell {
        var id: Int64
        /// 1 − (the cell's nearest distance / within): a row's score is at most share × factor.
        var factor: Double
        /// At least the share of every unread row (the next row's share, or the top of the next band of
        /// `palette_pack`): +∞ before the first read, nil once the cell is read to its end.
        var next: Double?
    }

    /// Oklab units a cell spans on each axis: 1 / 40 (2.5 ΔE); the migration computes the same indexes.
    static let cellsPerUnit = 40.0
    static let indexes = 128
    /// More cells than this for one search (a very wide `within`): the caller uses the R*Tree search.
    static let maximumCells = 30_000
    /// Each round's level is the previous one's × this, down to `lowestLevel`, then 0 (everything).
    static let (firstLevel, levelRatio, lowestLevel) = (0.5, 0.8, 0.002)

    let query: ColorQuery
    let db: Database
    /// Where a cell's colours are read from.
    enum Source {
        /// From `palette_pack` when it matches `palette_cell`, else row by row: what searches use.
        case packWhenCurrent
        /// From `palette_cell` row by row: the search before the pack, for the tests and the benchmark.
        case rows
    }

    var source = Source.packWhenCurrent

    /// The cell index of a coordinate, as migration 0005's triggers compute it.
    static func index(_ value: Double) -> Int {
        let scaled = (value + 1) * cellsPerUnit
        guard scaled >= 0 else { return 0 }
        return scaled >= Double(indexes - 1) ? indexes - 1 : Int(scaled)
    }

    /// The range of one cell index on its axis (the outermost cells also hold everything beyond them).
    static func range(of index: Int) -> (lower: Double, upper: Double) {
        (index == 0 ? -.infinity : Double(index) / cellsPerUnit - 1,
         index == indexes - 1 ? .infinity : Double(index + 1) / cellsPerUnit - 1)
    }

    /// The cells within `within` of `color`, each with its bound factor; nil beyond `limit` cells.
    private func cells(near color: OklabColor, limit: Int) -> [Cell]? {
        // In Oklab units, a hair wider than `within` (as the R*Tree search): nothing at the threshold is lost.
        let radius = query.within / 100 * (1 + 1e-9)
        func span(_ value: Double) -> ClosedRange<Int> {
            max(Self.index(value - radius) - 1, 0)...min(Self.index(value + radius) + 1, Self.indexes - 1)
        }
        func gap(_ value: Double, _ index: Int) -> Double {
            let (lower, upper) = Self.range(of: index)
            return value < lower ? lower - value : value > upper ? value - upper : 0
        }
        let ls = span(color.l), as_ = span(color.a), bs = span(color.b)
        guard ls.count * as_.count * bs.count <= limit * 2 else { return nil }
        var cells: [Cell] = []
        for li in ls {
            let dl = gap(color.l, li)
            for ai in as_ {
                let da = gap(color.a, ai)
                for bi in bs {
                    let db = gap(color.b, bi)
                    // The cell's stored points may sit a rounding error outside its nominal range.
                    let nearest = max((dl * dl + da * da + db * db).squareRoot() - 1e-9, 0)
                    guard nearest <= radius else { continue }
                    cells.append(Cell(id: Int64((li * Self.indexes + ai) * Self.indexes + bi), factor: 1 - nearest / radius, next: .infinity))
                }
            }
        }
        return cells.count <= limit ? cells : nil
    }

    /// The final stickers (one hit per query colour, in query order) among which the results are the
    /// best `limit`: every sticker that can be in them. `allowed` applies the EXIF filters to photo ids.
    /// Nil when the query needs more cells than ``maximumCells``.
    func search(allowed: ([Int64]) throws -> Set<Int64>) throws -> [Int64: [Hit]]? {
        var streams: [[Cell]] = []
        var budget = Self.maximumCells
        for color in query.colors {
            guard let cells = cells(near: color, limit: budget) else { return nil }
            budget -= cells.count
            streams.append(cells)
        }
        let reader: any PaletteCellSource = try source == .packWhenCurrent && PalettePack.isCurrent(db)
            ? PalettePackReader(db: db) : PaletteCellReader(db: db)
        var tally = Tally(colors: query.colors.count)
        var buffer: [PaletteCellReader.Row] = []
        buffer.reserveCapacity(1024)
        var finals: [Int64: [Hit]] = [:]
        var passing = 0
        var level = Self.firstLevel
        while true {
            tally.meetDeferred(downTo: level)
            try readRound(downTo: level, streams: &streams, reader: reader, buffer: &buffer, tally: &tally)
            // Every palette colour scoring `level` or more has been read: a sticker whose weakest best
            // colour scores that much is exact, and every other sticker scores less.
            let fresh = tally.takeFinals(downTo: level)
            for (photo, photoHits) in fresh { finals[photo] = photoHits }
            if query.hasExifFilter {
                let kept = try allowed(fresh.map(\.photo))
                for (photo, _) in fresh where !kept.contains(photo) { finals[photo] = nil }
                passing += kept.count
            } else {
                passing += fresh.count
            }
            if passing >= query.limit || level == 0 { return finals }
            level = nextLevel(after: level, tally: tally, passing: passing)
        }
    }

    /// One round: for every query colour, the rows of its cells whose bound reaches `level` that earlier
    /// rounds did not read; each cell's `next` moves down to where the read stopped.
    private func readRound(
        downTo level: Double, streams: inout [[Cell]], reader: any PaletteCellSource, buffer: inout [PaletteCellReader.Row],
        tally: inout Tally
    ) throws {
        for (index, wanted) in query.colors.enumerated() {
            for position in streams[index].indices {
                let cell = streams[index][position]
                let downTo = level > 0 ? level / cell.factor : 0
                // Shares are at most 1: a cell whose factor is below the level holds nothing to read yet.
                guard let next = cell.next, downTo <= 1, next >= downTo else { continue }
                buffer.removeAll(keepingCapacity: true)
                streams[index][position].next = try reader.read(cell: cell.id, atMost: min(next, 2), downTo: downTo, into: &buffer)
                for row in buffer {
                    let distance = wanted.deltaE(row.color)
                    let score = query.score(distance: distance, share: row.share)
                    guard score >= 0 else { continue }
                    let hit = Hit(colorId: row.id, distance: distance, share: row.share, score: score)
                    if score < level {
                        tally.deferred[index].append(Tally.Deferred(photo: row.photo, hit: hit))
                    } else {
                        tally.meet(row.photo, index, hit)
                    }
                }
            }
        }
    }

    /// The next round's level: × ``levelRatio`` (0 below ``lowestLevel``), or at once the score that the
    /// stickers still to find already reach. Without filters, the stickers met in every colour score at
    /// least their weakest best colour so far: if enough of them reach x, the results score x or more, and
    /// reading down to x is enough (it makes them final). Saves reading far below the last result's score.
    private func nextLevel(after level: Double, tally: Tally, passing: Int) -> Double {
        var floor = 0.0
        if !query.hasExifFilter, tally.waiting.count >= query.limit - passing {
            let lower = tally.waiting.map(tally.weakest).sorted(by: >)
            floor = lower[query.limit - passing - 1]
        }
        if floor > level * Self.levelRatio { return floor }
        return level * Self.levelRatio < Self.lowestLevel ? 0 : level * Self.levelRatio
    }
}

/// The stickers a search met so far, and their best hit per query colour.
private struct Tally {
    /// A row met before its score reaches the level (a band of `palette_pack` comes whole): it waits,
    /// per query colour, until a round's level falls to its score, so a sticker gets a slot only for a
    /// colour that counts at the level, as when reading row by row.
    struct Deferred {
        var photo: Int64
        var hit: PaletteCellSearch.Hit
    }

    /// Query colours.
    let count: Int
    // Every sticker met has a slot: its best hit per query colour so far (score −1: not met in that
    // colour yet) at `hits[slot × count + colour]`, flat, so meeting a sticker allocates nothing.
    var slots: [Int64: Int] = [:]
    var photos: [Int64] = []
    var hits: [PaletteCellSearch.Hit] = []
    /// Per slot, the query colours it has not been met in yet.
    var missing: [Int] = []
    /// Slots met in every colour and not final yet.
    var waiting: [Int] = []
    var deferred: [[Deferred]]

    init(colors count: Int) {
        self.count = count
        deferred = Array(repeating: [], count: count)
        // Sized for a typical search (two colours at 1,000,000 stickers meet ~10,000): fewer regrowths.
        slots.reserveCapacity(8192)
        photos.reserveCapacity(8192)
        hits.reserveCapacity(8192 * count)
        missing.reserveCapacity(8192)
    }

    /// The score of the slot's weakest best colour so far.
    func weakest(_ slot: Int) -> Double {
        var weakest = Double.infinity
        for index in slot * count..<(slot + 1) * count { weakest = min(weakest, hits[index].score) }
        return weakest
    }

    /// Keeps `hit` for query colour `index` of `photo` when it beats the best so far.
    mutating func meet(_ photo: Int64, _ index: Int, _ hit: PaletteCellSearch.Hit) {
        let slot: Int
        if let known = slots[photo] {
            slot = known
        } else {
            slot = photos.count
            slots[photo] = slot
            photos.append(photo)
            for _ in 0..<count { hits.append(PaletteCellSearch.Hit(colorId: 0, distance: 0, share: 0, score: -1)) }
            missing.append(count)
        }
        let at = slot * count + index
        let best = hits[at]
        // The lowest colour id among equal scores, as the full scan.
        guard hit.score > best.score || (hit.score == best.score && hit.colorId < best.colorId) else { return }
        hits[at] = hit
        if best.score < 0 {
            missing[slot] -= 1
            if missing[slot] == 0 { waiting.append(slot) }
        }
    }

    /// Meets the deferred rows whose score reaches `level`.
    mutating func meetDeferred(downTo level: Double) {
        for index in 0..<count where !deferred[index].isEmpty {
            var kept: [Deferred] = []
            for entry in deferred[index] {
                if entry.hit.score >= level { meet(entry.photo, index, entry.hit) } else { kept.append(entry) }
            }
            deferred[index] = kept
        }
    }

    /// The waiting stickers whose weakest best colour reaches `level`, with their hits: final now.
    mutating func takeFinals(downTo level: Double) -> [(photo: Int64, hits: [PaletteCellSearch.Hit])] {
        var fresh: [(photo: Int64, hits: [PaletteCellSearch.Hit])] = []
        var stillWaiting: [Int] = []
        for slot in waiting {
            if weakest(slot) >= level {
                fresh.append((photos[slot], Array(hits[slot * count..<(slot + 1) * count])))
            } else {
                stillWaiting.append(slot)
            }
        }
        waiting = stillWaiting
        return fresh
    }
}
