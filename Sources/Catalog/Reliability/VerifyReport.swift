/// What `catalog verify` found. JSON keys are the property names.
public struct VerifyReport: Sendable, Equatable, JSONObject {
    /// One thing wrong with the catalog.
    public struct Problem: Sendable, Equatable, Encodable {
        /// Which check found it: `integrity`, `foreign-key`, `incomplete-entry`, `sticker-size`,
        /// `palette`, `palette-index`.
        public var check: String
        /// The entry concerned, when the problem is about one entry.
        public var id: Int64?
        /// What is wrong, for people.
        public var message: String
    }

    /// An entry whose source file is no longer where the catalog saw it (reported, not a fault of the catalog).
    public struct MissingSource: Sendable, Equatable, Encodable {
        public var id: Int64
        public var path: String
    }

    /// True when no check found a problem (missing sources do not count).
    public var sound: Bool { problems.isEmpty }
    /// Entries checked, all statuses.
    public var entries: Int
    /// Palette colour rows checked.
    public var paletteColors: Int
    /// Whether the palette's R*Tree index (`palette_index`) exists and was compared with `palette_color`.
    public var paletteIndexChecked: Bool
    /// What is wrong, in the order found; empty when the catalog is sound.
    public var problems: [Problem]
    /// Entries whose source file is missing, by id.
    public var missingSources: [MissingSource]
    /// Counts and checksums of the content (equal on a catalog and its copy); nil when not computed.
    public var checksums: CatalogChecksums?

    public var jsonFields: [JSONField] {
        [("sound", sound), ("entries", entries), ("paletteColors", paletteColors), ("paletteIndexChecked", paletteIndexChecked),
         ("problems", problems), ("missingSources", missingSources)] + fieldIfPresent("checksums", checksums)
    }
}
