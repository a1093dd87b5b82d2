import Processing

/// Two stickers of one pack that look alike: `catalog pack add` warns about them.
public struct PackDuplicate: Sendable, Equatable {
    /// The entry just added.
    public var added: Int64
    /// The entry of the pack it looks like.
    public var other: Int64
    public var distance: Int

    /// The near-duplicate pairs between `added` and the rest of `pack` (every id in the pack, the
    /// added ones included), by index lookups of each added entry's signature: never the whole
    /// catalog. Pairs the user marked distinct are left out.
    public static func among(
        added: [Int64], pack: [Int64], store: any SimilarityStore, within: Int = SimilaritySignature.defaultWithin
    ) async throws(CatalogError) -> [PackDuplicate] {
        let inPack = Set(pack)
        var decisions: DuplicateDecisions?
        var pairs: [PackDuplicate] = []
        var reported: Set<EntryPair> = []
        for id in added {
            guard let signature = try await store.signature(id: id) else { continue }
            for near in try await store.nearDuplicates(of: signature, within: within, excluding: id) where inPack.contains(near.id) {
                if decisions == nil { decisions = try await store.duplicateDecisions() }
                let pair = EntryPair(id, near.id)
                guard decisions?.distinct.contains(pair) != true, reported.insert(pair).inserted else { continue }
                pairs.append(PackDuplicate(added: id, other: near.id, distance: near.distance))
            }
        }
        return pairs
    }
}
