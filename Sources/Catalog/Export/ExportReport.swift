/// What an export wrote, or with `--dry-run` would write: per part, each file's pixels, bytes and
/// limit. JSON: `{"pack","format","dryRun","ok","parts":[{"name","path","count","files":[...]}]}`.
public struct ExportReport: Sendable, Equatable, Codable {
    public var pack: String
    public var format: ExportFormat
    public var dryRun: Bool
    /// True when every file fits its limit.
    public var ok: Bool
    public var parts: [Part]

    /// One written pack (`NAME`, or `NAME-1`, `NAME-2`, ... after a split).
    public struct Part: Sendable, Equatable, Codable {
        /// The part's pack name.
        public var name: String
        /// Where it is (or would be) written.
        public var path: String
        /// Stickers in the part.
        public var count: Int
        public var files: [Fit]
    }

    /// One sticker (or icon) file and its limits.
    public struct Fit: Sendable, Equatable, Codable {
        /// The sticker's entry id; nil for an icon.
        public var id: Int64?
        /// The file's path inside the part.
        public var file: String
        public var width: Int
        public var height: Int
        /// Bytes after encoding (the smallest reached when it does not fit).
        public var bytes: Int
        /// The byte limit (inclusive); nil when there is none.
        public var limit: Int?
        /// How it was encoded: `stored`, `png`, `png-small`, `png-6bit`, `webp-lossless`, `webp-q83`;
        /// for a moving sticker `webp-q75`, `apng`, `apng-128c`, `vp9-q60`.
        public var encoding: String
        public var ok: Bool
        /// For a moving sticker: what it became; omitted for a still one.
        public var animation: Motion? = nil
    }

    /// A moving sticker as exported, and what was given up to fit the platform.
    public struct Motion: Sendable, Equatable, Codable {
        public var frames: Int
        public var frameRate: Double
        public var durationMs: Int
        /// What was changed, in words (`30 → 15 fps`, `3.0 → 2.0 s`); empty when nothing was.
        public var steps: [String]
    }
}
