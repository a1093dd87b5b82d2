import Processing

/// One entry per group of near-duplicates, for `--distinct` listings and searches: each entry's
/// group is named by the group's best entry.
public struct DistinctEntries: Sendable {
    /// Each grouped entry's group best; entries in no group are absent (their own group).
    let bestOf: [Int64: Int64]

    /// The catalog's groups within `within` (``DuplicateFinder``).
    public static func load(_ store: any SimilarityStore, within: Int = SimilaritySignature.defaultWithin) async throws(CatalogError) -> DistinctEntries {
        var bestOf: [Int64: Int64] = [:]
        for group in try await DuplicateFinder(store: store).groups(within: within) {
            for member in group.members { bestOf[member.id] = group.best }
        }
        return DistinctEntries(bestOf: bestOf)
    }

    /// The group entry `id` is in, named by its best (itself when it is in none).
    public func group(of id: Int64) -> Int64 { bestOf[id] ?? id }

    /// Whether `id` is the one entry a listing shows of its group: the best, or an entry in no group.
    public func isShown(_ id: Int64) -> Bool { group(of: id) == id }

    /// The first of `items` from each group, in their order (a search's best-ranked hit of each group).
    public func firstOfEachGroup<Item>(_ items: [Item], id: (Item) -> Int64) -> [Item] {
        var seen: Set<Int64> = []
        return items.filter { seen.insert(group(of: id($0))).inserted }
    }
}
