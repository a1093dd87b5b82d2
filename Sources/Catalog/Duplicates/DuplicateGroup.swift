import Processing

/// Entries that look like one another, with the one to keep: what `catalog duplicates` lists.
public struct DuplicateGroup: Sendable, Equatable {
    /// One member: the entry, its facts, and its distance from the group's best (0 for the best; from
    /// its nearest member when it is in the group only through another).
    public struct Member: Sendable, Equatable {
        public var id: Int64
        public var path: String
        public var width, height: Int
        public var fileSize: Int64
        public var sharpness: Double
        public var distance: Int
    }

    /// Members, the best first, then by distance and id.
    public var members: [Member]
    /// Whether the user chose the best (`catalog duplicates --keep`, the page) rather than the rule.
    public var bestChosenByUser: Bool

    /// The entry to keep.
    public var best: Int64 { members[0].id }

    /// The best-of-group rule, in order: the most pixels (a resized copy loses); then, for the same
    /// size, the sharper photo when it is clearly sharper (by a tenth), else the larger file per pixel
    /// (the less compressed copy); then the older entry.
    public static func isBetter(_ first: SignedEntry, than second: SignedEntry) -> Bool {
        let firstPixels = first.width * first.height, secondPixels = second.width * second.height
        if firstPixels != secondPixels { return firstPixels > secondPixels }
        let firstSharp = first.signature.sharpness, secondSharp = second.signature.sharpness
        if abs(firstSharp - secondSharp) > 0.1 * max(firstSharp, secondSharp) { return firstSharp > secondSharp }
        if first.fileSize != second.fileSize { return first.fileSize > second.fileSize }
        return first.id < second.id
    }

    /// How far `entry` is from the best; for a member joined only through others (too far from the best
    /// to count), how far it is from its nearest member.
    static func distance(of entry: SignedEntry, best: SignedEntry, in entries: [SignedEntry]) -> Int {
        guard entry.id != best.id else { return 0 }
        let direct = entry.signature.distance(to: best.signature)
        if direct != Int.max { return direct }
        return entries.filter { $0.id != entry.id }.map { entry.signature.distance(to: $0.signature) }.min() ?? direct
    }

    /// The group of `entries` (at least two), its best chosen by `kept` when one of them is kept.
    init(_ entries: [SignedEntry], kept: Set<Int64>) {
        let chosen = entries.first { kept.contains($0.id) }
        let best = chosen ?? entries.dropFirst().reduce(entries[0]) { Self.isBetter($1, than: $0) ? $1 : $0 }
        members = entries.map { entry in
            Member(id: entry.id, path: entry.path, width: entry.width, height: entry.height, fileSize: entry.fileSize,
                   sharpness: entry.signature.sharpness, distance: Self.distance(of: entry, best: best, in: entries))
        }.sorted { first, second in
            if first.id == best.id || second.id == best.id { return first.id == best.id }
            return (first.distance, first.id) < (second.distance, second.id)
        }
        bestChosenByUser = chosen != nil
    }
}

extension DuplicateGroup: JSONObject {
    public var jsonFields: [JSONField] { [("best", best), ("bestChosenBy", bestChosenByUser ? "user" : "rule"), ("members", members)] }
}

extension DuplicateGroup.Member: Encodable {}

/// The groups of a catalog at one distance: what `catalog duplicates --json` prints and the
/// duplicates routes answer (`{"within", "groups"}`).
public struct DuplicatesReport: Sendable, Encodable {
    public var within: Int
    public var groups: [DuplicateGroup]

    public init(within: Int, groups: [DuplicateGroup]) {
        self.within = within
        self.groups = groups
    }
}
