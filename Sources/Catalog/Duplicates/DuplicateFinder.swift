import Processing

/// Groups a whole catalog's near-duplicates: every signature read once, page by page, into an
/// in-memory multi-index (``BandIndex``), each entry's neighbours found through it, and the pairs
/// joined into groups (union-find). Pairs the user marked distinct are never joined. Memory: the
/// entries read, and 12 tables of 12 bytes an entry (144 MB at a million).
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
        let index = BandIndex(entries.map(\.signature))
        index.forEachCandidatePair(within: within) { first, second in
            guard entries[first].signature.distance(to: entries[second].signature) <= within,
                  distinct.isEmpty || !distinct.contains(EntryPair(entries[first].id, entries[second].id)) else { return }
            joined.join(first, second)
        }
        var members: [Int: [Int]] = [:]
        for position in entries.indices { members[joined.root(position), default: []].append(position) }
        return members.values.filter { $0.count > 1 }
    }
}

/// The three hashes of many signatures, each cut into four 16-bit quarters as the back ends index
/// them, each quarter's values as buckets (a compressed row table: `starts[v] ..< starts[v + 1]`) of
/// positions with their whole hash beside them. Two hashes within d bits agree on some quarter up to
/// floor(d / 4) bits (one for the default distance): each entry reads few buckets, and scans them in
/// order, comparing whole hashes that lie in the bucket itself, never reaching across memory for a
/// candidate's signature.
struct BandIndex {
    static let bands: [(shift: UInt64, bits: Int)] = [(0, 16), (16, 16), (32, 16), (48, 16)]
    private var starts: [[Int32]] = []
    private var positions: [[Int32]] = []
    private var hashes: [[UInt64]] = []

    init(_ signatures: [SimilaritySignature]) {
        for hash in 0..<3 {
            let bits = signatures.map { Self.hash(hash, of: $0) }
            for band in Self.bands {
                let size = 1 << band.bits
                var counts = [Int32](repeating: 0, count: size + 1)
                let values = bits.map { Self.value($0, band) }
                for value in values { counts[value + 1] += 1 }
                for value in 1...size { counts[value] += counts[value - 1] }
                var next = counts
                var bucket = [Int32](repeating: 0, count: signatures.count)
                var bucketHashes = [UInt64](repeating: 0, count: signatures.count)
                for (position, value) in values.enumerated() {
                    bucket[Int(next[value])] = Int32(position)
                    bucketHashes[Int(next[value])] = bits[position]
                    next[value] += 1
                }
                starts.append(counts)
                positions.append(bucket)
                hashes.append(bucketHashes)
            }
        }
    }

    static func hash(_ index: Int, of signature: SimilaritySignature) -> UInt64 {
        [signature.photo.bits, signature.surroundings.bits, signature.subject.bits][index]
    }

    static func value(_ bits: UInt64, _ band: (shift: UInt64, bits: Int)) -> Int {
        Int((bits >> band.shift) & ((1 << UInt64(band.bits)) - 1))
    }

    /// Calls `visit` with every pair of positions (possibly more than once) whose hashes of one kind
    /// are within that kind's radius: a sweep over each table's buckets in order, each bucket against
    /// itself and against the buckets whose value differs in up to floor(radius / 4) bits, every
    /// comparison between hashes lying side by side in memory. The caller checks the whole distance.
    func forEachCandidatePair(within: Int, _ visit: (Int, Int) -> Void) {
        for (hash, column) in SimilarityQuery.columns(within: within).enumerated() {
            for (number, band) in Self.bands.enumerated() {
                let table = hash * Self.bands.count + number
                starts[table].withUnsafeBufferPointer { starts in
                    positions[table].withUnsafeBufferPointer { positions in
                        hashes[table].withUnsafeBufferPointer { hashes in
                            for value in 0..<(1 << band.bits) where starts[value] < starts[value + 1] {
                                let own = Int(starts[value])..<Int(starts[value + 1])
                                SimilarityQuery.forEachVariant(of: value, bits: band.bits, flipping: column.radius / Self.bands.count) { other in
                                    guard other >= value else { return }
                                    for first in own {
                                        let from = other == value ? first + 1 : Int(starts[other])
                                        for second in from..<Int(starts[other + 1])
                                        where (hashes[first] ^ hashes[second]).nonzeroBitCount <= column.radius {
                                            visit(Int(positions[first]), Int(positions[second]))
                                        }
                                    }
                                }
                            }
                        }
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
