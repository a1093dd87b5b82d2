import Processing

/// The near-duplicate signatures of a catalog and what the user decided about them: the lookups the
/// import and the pack editor make, and the pages `catalog duplicates` groups.
public protocol SimilarityStore: CatalogHandle {
    /// The entries whose signature is within `within` of `signature` (``SimilaritySignature/distance(to:)``),
    /// nearest first, then by id, without `excluding`; read through the back end's quarter indexes, never
    /// a scan of the catalog.
    func nearDuplicates(of signature: SimilaritySignature, within: Int, excluding id: Int64?) async throws(CatalogError) -> [NearDuplicate]
    /// Entry `id`'s signature; nil when it has none (no sticker, or made before signatures).
    func signature(id: Int64) async throws(CatalogError) -> SimilaritySignature?
    /// Up to `limit` entries with a signature and an id above `id`, in id order, with what the best-of-group
    /// rule reads.
    func signedEntries(after id: Int64, limit: Int) async throws(CatalogError) -> [SignedEntry]
    /// Every decision the user made about near-duplicates.
    func duplicateDecisions() async throws(CatalogError) -> DuplicateDecisions
    /// Records that the entries `ids` are not duplicates of each other (every pair of them).
    func markDistinct(_ ids: [Int64]) async throws(CatalogError)
    /// Records that the user keeps entry `id` of its group, and forgets any other kept entry of `group`.
    func keep(_ id: Int64, of group: [Int64]) async throws(CatalogError)
}

/// One entry near another: its id and how far apart the two are.
public struct NearDuplicate: Sendable, Equatable, Codable {
    public var id: Int64
    public var distance: Int
}

/// An entry with its signature and the facts that choose a group's best (see ``DuplicateGroup``).
public struct SignedEntry: Sendable, Equatable {
    public var id: Int64
    public var signature: SimilaritySignature
    /// The photo's upright size, in pixels.
    public var width: Int
    public var height: Int
    /// The photo file's size in bytes.
    public var fileSize: Int64
    public var path: String
}

/// What the user decided: pairs that are not duplicates, and the entries kept of their groups.
public struct DuplicateDecisions: Sendable, Equatable {
    /// Pairs, the smaller id first.
    public var distinct: Set<EntryPair> = []
    public var kept: Set<Int64> = []
}

/// Two entries, the smaller id first.
public struct EntryPair: Sendable, Hashable {
    public let first: Int64
    public let second: Int64

    public init(_ a: Int64, _ b: Int64) {
        first = min(a, b)
        second = max(a, b)
    }
}

extension DuplicateDecisions {
    /// Every pair of distinct entries among `ids`.
    static func pairs(of ids: [Int64]) -> [EntryPair] {
        let unique = Array(Set(ids)).sorted()
        return unique.indices.flatMap { first in unique[(first + 1)...].map { EntryPair(unique[first], $0) } }
    }
}
