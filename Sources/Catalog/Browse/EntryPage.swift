/// Which page of entries `EntryStore.entryPage(_:settings:)` reads: newest first.
public struct EntryPageQuery: Sendable, Equatable {
    /// Largest page the repository serves.
    public static let maxLimit = 1000

    public var limit: Int
    public var offset: Int
    /// Only entries with this status (nil: every status).
    public var status: EntryStatus?
    /// Only entries whose catalog record makes them stale (pipeline, settings, failed): the reasons the
    /// catalog alone tells. Source files are not read for a page (`catalog list --stale` does that).
    public var staleOnly: Bool

    public init(limit: Int = 100, offset: Int = 0, status: EntryStatus? = nil, staleOnly: Bool = false) {
        self.limit = limit
        self.offset = offset
        self.status = status
        self.staleOnly = staleOnly
    }
}

/// One page of entries and how many match in all. JSON: `{"total","limit","offset","entries"}`.
public struct EntryPage: Sendable, Equatable, Encodable {
    /// One entry of a page. JSON: `catalog list --json`'s keys (`id`, `sha256`, `path`, `status`) plus
    /// `failure` (`{"code","message"}` or null) and `reasons` (the recorded stale reasons, maybe empty).
    public struct Item: Sendable, Equatable, JSONObject {
        public var id: Int64
        public var sha256: String?
        public var path: String
        public var status: EntryStatus
        public var failure: EntryDetail.Failure?
        /// Whether its sticker moves (its animated form is `/api/stickers/ID.webp`).
        public var animated: Bool
        public var reasons: [StaleReason]

        public var jsonFields: [JSONField] {
            [("id", id), ("sha256", sha256), ("path", path), ("status", status), ("failure", failure), ("animated", animated),
             ("reasons", reasons)]
        }
    }

    /// Entries matching the query, on every page.
    public var total: Int
    public var limit: Int
    public var offset: Int
    public var entries: [Item]
}
