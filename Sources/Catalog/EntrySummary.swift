/// One line of `catalog list`. JSON: `{"id","sha256","path","status"}` (`sha256` is null for a file
/// that could not be read); the failure code and message are properties only, for `list --failed`.
public struct EntrySummary: Sendable, Equatable, Encodable {
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

    private enum CodingKeys: String, CodingKey {
        case id, sha256, path, status, pathEscaped
    }

    /// Encodes every key, with `null` for an unknown hash.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeOrNull(sha256, forKey: .sha256)
        try container.encode(path, forKey: .path)
        if EscapedPath.isEscaped(path) { try container.encode(true, forKey: .pathEscaped) }
        try container.encode(status, forKey: .status)
    }
}

extension KeyedEncodingContainer {
    /// Encodes `value`, or an explicit `null` when it is nil (the catalog's JSON always has every key).
    mutating func encodeOrNull<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value {
            try encode(value, forKey: key)
        } else {
            try encodeNil(forKey: key)
        }
    }
}
