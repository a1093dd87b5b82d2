/// What happened to one entry during a reprocess: one JSON object a line in `--json` output.
/// In a dry run the events say what would happen; nothing is processed or written.
public enum ReprocessEvent: Sendable, Equatable, Encodable {
    /// The entry was re-run and replaced (in a dry run: would be).
    case reprocessed(id: Int64, path: String, reasons: [StaleReason])
    /// The file was only touched (same bytes): its new size and modification time were recorded.
    case refreshed(id: Int64, path: String)
    /// Reading or processing failed. An entry that had a sticker for the same bytes keeps it.
    case failed(id: Int64, path: String, reasons: [StaleReason], code: String, message: String)
    /// The source file is gone (`source-missing` is among the reasons): reported, not an error.
    case missing(id: Int64, path: String, reasons: [StaleReason])
    /// The source now holds the bytes of entry `duplicateOf`; `removed` when this entry was a placeholder
    /// for an unreadable file and was removed, else it was left as it was.
    case duplicate(id: Int64, path: String, reasons: [StaleReason], duplicateOf: Int64, removed: Bool)

    /// The entry the event is about.
    public var id: Int64 {
        switch self {
        case .reprocessed(let id, _, _), .refreshed(let id, _), .failed(let id, _, _, _, _), .missing(let id, _, _),
            .duplicate(let id, _, _, _, _): id
        }
    }

    private enum CodingKeys: String, CodingKey { case event, id, path, reasons, error, duplicateOf, removed }
    private enum ErrorKeys: String, CodingKey { case code, message }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .reprocessed(let id, let path, let reasons):
            try container.encode("reprocessed", forKey: .event)
            try Self.encode(id, path, reasons, into: &container)
        case .refreshed(let id, let path):
            try container.encode("refreshed", forKey: .event)
            try Self.encode(id, path, [], into: &container)
        case .failed(let id, let path, let reasons, let code, let message):
            try container.encode("failed", forKey: .event)
            try Self.encode(id, path, reasons, into: &container)
            var error = container.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error)
            try error.encode(code, forKey: .code)
            try error.encode(message, forKey: .message)
        case .missing(let id, let path, let reasons):
            try container.encode("missing", forKey: .event)
            try Self.encode(id, path, reasons, into: &container)
        case .duplicate(let id, let path, let reasons, let duplicateOf, let removed):
            try container.encode("duplicate", forKey: .event)
            try Self.encode(id, path, reasons, into: &container)
            try container.encode(duplicateOf, forKey: .duplicateOf)
            try container.encode(removed, forKey: .removed)
        }
    }

    private static func encode(
        _ id: Int64, _ path: String, _ reasons: [StaleReason], into container: inout KeyedEncodingContainer<CodingKeys>
    ) throws {
        try container.encode(id, forKey: .id)
        try container.encode(path, forKey: .path)
        try container.encode(reasons, forKey: .reasons)
    }
}

/// The totals of a reprocess: the last JSON object of `--json` output.
public struct ReprocessSummary: Sendable, Equatable, Encodable {
    public var reprocessed = 0
    public var refreshed = 0
    public var failed = 0
    public var missing = 0
    public var duplicates = 0
    /// Entries that were to run but were not reached (the run was interrupted).
    public var left = 0
    /// True when the run was stopped (SIGINT/SIGTERM) before every entry was done.
    public var interrupted = false

    public init() {}

    /// Entries done so far.
    public var done: Int { reprocessed + refreshed + failed + missing + duplicates }

    mutating func count(_ event: ReprocessEvent) {
        switch event {
        case .reprocessed: reprocessed += 1
        case .refreshed: refreshed += 1
        case .failed: failed += 1
        case .missing: missing += 1
        case .duplicate: duplicates += 1
        }
    }

    private enum CodingKeys: String, CodingKey { case event, reprocessed, refreshed, failed, missing, duplicates, left, interrupted }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("summary", forKey: .event)
        try container.encode(reprocessed, forKey: .reprocessed)
        try container.encode(refreshed, forKey: .refreshed)
        try container.encode(failed, forKey: .failed)
        try container.encode(missing, forKey: .missing)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(left, forKey: .left)
        try container.encode(interrupted, forKey: .interrupted)
    }
}
