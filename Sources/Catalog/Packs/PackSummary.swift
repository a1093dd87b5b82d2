/// One pack as `catalog pack list` shows it. JSON: `{"name","title","author","count","createdAt"}`.
public struct PackSummary: Sendable, Equatable, Codable {
    public var name: String
    public var title: String
    public var author: String
    /// How many stickers the pack holds.
    public var count: Int
    /// ISO 8601 UTC.
    public var createdAt: String
}

/// One sticker of a pack, in order.
public struct PackItem: Sendable, Equatable, Codable {
    /// 1-based place in the pack.
    public var position: Int
    /// The entry's id.
    public var id: Int64
    /// The sticker's emoji, each one grapheme.
    public var emoji: [String]
    /// The entry's source path, as recorded.
    public var path: String
    /// The stored sticker's pixel size and PNG bytes.
    public var width: Int
    public var height: Int
    public var bytes: Int
    /// True when the sticker moves (made from a clip or an animation).
    public var animated: Bool
}

/// A pack and its stickers in order: `catalog pack show`. JSON: the summary's keys plus `items`.
public struct PackDetail: Sendable, Equatable, Codable {
    public var name: String
    public var title: String
    public var author: String
    public var createdAt: String
    public var items: [PackItem]
    /// Which messaging apps take the pack as it is, by the rules that need no encoding.
    public var platforms: [PlatformCheck]

    public init(name: String, title: String, author: String, createdAt: String, items: [PackItem]) {
        self.name = name
        self.title = title
        self.author = author
        self.createdAt = createdAt
        self.items = items
        platforms = PlatformCheck.all(name: name, title: title, moving: items.map(\.animated))
    }
}

/// What `addToPack` did.
public struct PackAddResult: Sendable, Equatable, Codable {
    /// Ids appended to the pack, in order.
    public var added: [Int64]
    /// Ids that were in the pack already (left where they were; their emoji is updated when one
    /// was given).
    public var alreadyPresent: [Int64]
    /// Ids left out because they have no sticker (only when the caller asked to skip them).
    public var skipped: [Int64]
}

// JSON: a pack without an author has `"author": null` (the JSON contract, docs/json.md), never `""`.
extension PackSummary: JSONObject {
    public var jsonFields: [JSONField] {
        [("name", name), ("title", title), ("author", author.isEmpty ? String?.none : author), ("count", count), ("createdAt", createdAt)]
    }
}

extension PackDetail: JSONObject {
    public var jsonFields: [JSONField] {
        [("name", name), ("title", title), ("author", author.isEmpty ? String?.none : author), ("createdAt", createdAt), ("items", items),
         ("platforms", platforms)]
    }
}
