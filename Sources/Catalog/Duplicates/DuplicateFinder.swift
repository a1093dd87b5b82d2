import Processing

/// Groups a whole catalog's near-duplicates: every signature read once, page by page, into an
/// in-memory multi-index (the quarters of each hash, as the back ends index them), each entry's
/// neighbours found through it, and the pairs joined into groups (union-find). Pairs the user marked
/// distinct are never joined. Memory: about 60 bytes an entry.
public struct DuplicateFinder: Sendable {
    let store: any SimilarityStore
    /// Signatures read per page.
    static let pageSize = 5000

    public init(store: any SimilarityStore) {
        self.store = store
    }

    /// The groups of entries within `within` of each other (directly or through other members),
    /// largest first, then by their best entry's id.
    public func groups(within: Int = SimilaritySignature.defaultWithin) async throws(CatalogError) -> [DuplicateGroup] {
        var entries: [SignedEntry] = []
        while true {
            let page = try await store.signedEntries(after: entries.last?.id ?? 0, limit: Self.pageSize)
            entries += page
            if page.count < Self.pageSize { break }
        }
        let decisions = try await store.duplicateDecisions()
        let components = Self.components(of: entries, within: within, distinct: decisions.distinct)
        return components.map { DuplicateGroup($0.map { entries[$0] }, kept: decisions.kept) }
            .sorted { ($0.members.count, -$0.best) > ($1.members.count, -$1.best) }
    }

    /// The sets of indices into `entries` (two or more each) joined by pairs within `within`.
    static func components(of entries: [SignedEntry], within: Int, distinct: Set<EntryPair>) -> [[Int]] {
        var joined = UnionFind(count: entries.count)
        let index = QuarterIndex(entries.map(\.signature))
        var seen = [Int32](repeating: -1, count: entries.count)
        for (position, entry) in entries.enumerated() {
            index.candidates(near: entry.signature, within: within) { other in
                guard other > position, seen[other] != Int32(position) else { return }
                seen[other] = Int32(position)
                guard entry.signature.distance(to: entries[other].signature) <= within,
                      distinct.isEmpty || !distinct.contains(EntryPair(entry.id, entries[other].id)) else { return }
                joined.join(position, other)
            }
        }
        var members: [Int: [Int]] = [:]
        for position in entries.indices { members[joined.root(position), default: []].append(position) }
        return members.values.filter { $0.count > 1 }
    }
}

/// The three hashes' quarters of many signatures, each as buckets of positions by value (a
/// compressed row table: `starts[v] ..< starts[v + 1]` in `positions`).
struct QuarterIndex {
    private var starts: [[Int32]] = []
    private var positions: [[Int32]] = []

    init(_ signatures: [SimilaritySignature]) {
        for hash in 0..<3 {
            for quarter in 0..<4 {
                var counts = [Int32](repeating: 0, count: 65537)
                let values = signatures.map { Self.quarter($0, hash: hash, quarter: quarter) }
                for value in values { counts[Int(value) + 1] += 1 }
                for value in 1...65536 { counts[value] += counts[value - 1] }
                var next = counts
                var bucket = [Int32](repeating: 0, count: signatures.count)
                for (position, value) in values.enumerated() {
                    bucket[Int(next[Int(value)])] = Int32(position)
                    next[Int(value)] += 1
                }
                starts.append(counts)
                positions.append(bucket)
            }
        }
    }

    static func quarter(_ signature: SimilaritySignature, hash: Int, quarter: Int) -> UInt16 {
        let bits = [signature.photo.bits, signature.surroundings.bits, signature.subject.bits][hash]
        return UInt16(truncatingIfNeeded: bits >> UInt64(quarter * 16))
    }

    /// Calls `visit` with every position sharing a quarter value close enough to be within `within`
    /// (positions may repeat).
    func candidates(near signature: SimilaritySignature, within: Int, _ visit: (Int) -> Void) {
        for (hash, column) in SimilarityQuery.columns(within: within).enumerated() {
            for quarter in 0..<4 {
                let table = hash * 4 + quarter
                for value in SimilarityQuery.variants(of: Self.quarter(signature, hash: hash, quarter: quarter), flipping: column.radius / 4) {
                    for slot in Int(starts[table][Int(value)])..<Int(starts[table][Int(value) + 1]) {
                        visit(Int(positions[table][slot]))
                    }
                }
            }
        }
    }
}

/// Disjoint sets of 0 ..< count, with path halving.
struct UnionFind {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    mutating func root(_ element: Int) -> Int {
        var element = element
        while parent[element] != element {
            parent[element] = parent[parent[element]]
            element = parent[element]
        }
        return element
    }

    mutating func join(_ first: Int, _ second: Int) {
        let a = root(first), b = root(second)
        if a != b { parent[max(a, b)] = min(a, b) }
    }
}
