/// One line of `catalog list`. JSON: `{"id","sha256","path","status"}` (`sha256` is null for a file
/// that could not be read); the failure code and message are properties only, for `list --failed`.
public struct EntrySummary: Sendable, Equatable, JSONObject {
    /// The entry's id.
    public var id: Int64
    /// The SHA-256 of the bytes, lower-case hex; nil when the file could not be read.
    public var sha256: String?
    /// The path recorded for the bytes.
    public var path: String
    /// Whether processing succeeded.
    public var status: EntryStatus
    /// The stable failure code (`corrupt-image`, `unreadable`, ...) when processing failed.
    public var failureCode: String?
    /// The failure message when processing failed.
    public var failureMessage: String?

    /// Every key, with `null` for an unknown hash; `pathEscaped` only when the path is escaped.
    public var jsonFields: [JSONField] {
        [("id", id), ("sha256", sha256), ("path", path)] + fieldIfPresent("pathEscaped", EscapedPath.isEscaped(path) ? true : nil)
            + [("status", status)]
    }
}
