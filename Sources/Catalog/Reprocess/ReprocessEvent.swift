/// What happened to one entry during a reprocess: one JSON object a line in `--json` output.
/// In a dry run the events say what would happen; nothing is processed or written.
public enum ReprocessEvent: Sendable, Equatable, TaggedEvent {
    /// The entry was re-run and replaced (in a dry run: would be).
    case reprocessed(id: Int64, path: String, reasons: [StaleReason])
    /// The file was only touched (same bytes): its new size and modification time were recorded.
    case refreshed(id: Int64, path: String)
    /// Reading or processing failed. An entry that had a sticker for the same bytes keeps it.
    case failed(id: Int64, path: String, reasons: [StaleReason], error: EventProblem)
    /// The source file is gone (`source-missing` is among the reasons): reported, not an error.
    case missing(id: Int64, path: String, reasons: [StaleReason])
    /// The source now holds the bytes of entry `duplicateOf`; `removed` when this entry was a placeholder
    /// for an unreadable file and was removed, else it was left as it was.
    case duplicate(id: Int64, path: String, reasons: [StaleReason], of: Copy)

    /// The entry whose bytes a source now holds (`duplicateOf`), and whether this entry was a placeholder
    /// for an unreadable file and was removed.
    public struct Copy: Sendable, Equatable {
        public let entry: Int64
        public let removed: Bool
    }

    /// The entry the event is about.
    public var id: Int64 {
        switch self {
        case .reprocessed(let id, _, _), .refreshed(let id, _), .failed(let id, _, _, _), .missing(let id, _, _), .duplicate(let id, _, _, _): id
        }
    }

    public var eventName: String {
        switch self {
        case .reprocessed: "reprocessed"
        case .refreshed: "refreshed"
        case .failed: "failed"
        case .missing: "missing"
        case .duplicate: "duplicate"
        }
    }

    public var eventFields: [JSONField] {
        switch self {
        case .reprocessed(let id, let path, let reasons), .missing(let id, let path, let reasons):
            Self.fields(id, path, reasons)
        case .refreshed(let id, let path):
            Self.fields(id, path, [])
        case .failed(let id, let path, let reasons, let error):
            Self.fields(id, path, reasons) + [("error", error)]
        case .duplicate(let id, let path, let reasons, let copy):
            Self.fields(id, path, reasons) + [("duplicateOf", copy.entry), ("removed", copy.removed)]
        }
    }

    private static func fields(_ id: Int64, _ path: String, _ reasons: [StaleReason]) -> [JSONField] {
        [("id", id), ("path", path), ("reasons", reasons)]
    }
}

/// The totals of a reprocess: the last JSON object of `--json` output.
public struct ReprocessSummary: Sendable, Equatable, TaggedEvent {
    /// Entries re-run and replaced, only touched (same bytes: new size and time recorded), and failed.
    public var reprocessed = 0, refreshed = 0, failed = 0
    /// Entries whose source is gone, and entries whose source now holds another entry's bytes.
    public var missing = 0, duplicates = 0
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

    public var eventName: String { "summary" }

    public var eventFields: [JSONField] {
        [("reprocessed", reprocessed), ("refreshed", refreshed), ("failed", failed), ("missing", missing),
         ("duplicates", duplicates), ("left", left), ("interrupted", interrupted)]
    }
}
