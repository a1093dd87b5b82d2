/// A pack exactly as a catalog keeps it, its items in order; packs are known by name, so a copy
/// need not keep the back end's pack ids.
public struct StoredPack: Sendable, Equatable {
    /// One sticker of the pack.
    public struct Item: Sendable, Equatable {
        public var entryID: Int64
        /// 0-based, as stored.
        public var position: Int
        public var emoji: String
    }

    public var name, title, author: String
    public var createdAt: String
    /// By position.
    public var items: [Item]
}

/// Everything a catalog keeps besides its entries: packs (by name) and the settings' stored text (by key,
/// including keys this binary does not know, so a copy loses nothing a newer binary wrote).
public struct StoredCatalogRest: Sendable, Equatable {
    public var packs: [StoredPack]
    public var settings: [String: String]
    /// The user's decisions about near-duplicates, ordered by ids and kind.
    public var duplicateDecisions: [StoredDuplicateDecision]
    /// The Live Photo links, ordered by the still's id.
    public var livePhotos: [EntryDetail.LivePhoto]

    public init(
        packs: [StoredPack], settings: [String: String], duplicateDecisions: [StoredDuplicateDecision] = [],
        livePhotos: [EntryDetail.LivePhoto] = []
    ) {
        self.livePhotos = livePhotos
        self.packs = packs
        self.settings = settings
        self.duplicateDecisions = duplicateDecisions
    }
}

/// One `duplicate_decision` row as stored: a pair marked distinct, or (the same id twice) an entry kept.
public struct StoredDuplicateDecision: Sendable, Equatable {
    public var firstID: Int64
    public var secondID: Int64
    /// `distinct` or `keep`.
    public var kind: String
    public var decidedAt: String
}

/// What a catalog that a copy is about to write into holds.
public enum CopyTargetState: Sendable, Equatable {
    /// Nothing at all: no entries, packs, settings, queued work or copy marker.
    case empty
    /// An incomplete copy of `source`, with entries copied up to `lastID` (nil: none yet).
    case incompleteCopy(source: String, lastID: Int64?)
    /// A finished copy of `source`.
    case completeCopy(source: String)
    /// A catalog with content of its own (`entries` entries, `packs` packs).
    case notEmpty(entries: Int, packs: Int)
}
