/// What happened to one file during an import: one JSON object a line in `--json` output.
public enum ImportEvent: Sendable, Equatable, TaggedEvent {
    /// A new entry was catalogued (id nil in a dry run).
    case imported(id: Int64?, path: String)
    /// The same bytes were already catalogued; `moved` when the entry's path was updated to this one.
    case duplicate(id: Int64, path: String, moved: Bool)
    /// The file could not be imported; recorded as a failed entry when `id` is not nil.
    case failed(id: Int64?, path: String, code: String, message: String)
    /// The file at an entry's path holds new bytes (edited in place): the entry keeps its id and its
    /// places in packs, and gets the new hash and a new sticker (id nil in a dry run: it would).
    case updated(id: Int64?, path: String)
    /// Met in a folder and deliberately not read: hidden, not a regular file, the catalog's own file, ...
    case skipped(path: String, code: String, message: String)

    /// The entry just recorded looks like entry `of` (``SimilaritySignature/distance(to:)`` apart): it
    /// is kept; `catalog duplicates` shows the group. Follows the file's own event; counted apart.
    case nearDuplicate(id: Int64, path: String, of: Int64, distance: Int)

    /// A problem that did not stop the file (an unusable colour profile, taken as sRGB); the file's
    /// own event follows. Not counted in the summary.
    case warning(path: String, message: String)

    /// Whether the event is a file's own outcome (it advances a progress count); a warning and a
    /// near-duplicate note are about a file whose outcome has its own event.
    public var isFileOutcome: Bool {
        switch self {
        case .warning, .nearDuplicate: false
        default: true
        }
    }

    /// The event's path.
    public var path: String {
        switch self {
        case .imported(_, let path), .duplicate(_, let path, _), .failed(_, let path, _, _), .updated(_, let path), .skipped(let path, _, _),
            .warning(let path, _), .nearDuplicate(_, let path, _, _): path
        }
    }

    public var eventName: String {
        switch self {
        case .imported: "imported"
        case .duplicate: "duplicate"
        case .failed: "failed"
        case .updated: "updated"
        case .skipped: "skipped"
        case .warning: "warning"
        case .nearDuplicate: "near-duplicate"
        }
    }

    public var eventFields: [JSONField] {
        // A name that is not UTF-8 is shown escaped; this says so (docs/json.md: `printf '%b'` gives the bytes back).
        let escaped: [JSONField] = EscapedPath.isEscaped(path) ? [("pathEscaped", true)] : []
        return escaped + [("path", path)] + details
    }

    /// The fields besides the path.
    private var details: [JSONField] {
        switch self {
        case .imported(let id, _), .updated(let id, _): [("id", id)]
        case .duplicate(let id, _, let moved): [("id", id), ("moved", moved)]
        case .failed(let id, _, let code, let message): [("id", id), ("error", EventProblem(code: code, message: message))]
        case .skipped(_, let code, let message): [("reason", EventProblem(code: code, message: message))]
        case .warning(_, let message): [("message", message)]
        case .nearDuplicate(let id, _, let of, let distance): [("id", id), ("of", of), ("distance", distance)]
        }
    }
}

/// The totals of an import: the last JSON object of `--json` output.
public struct ImportSummary: Sendable, Equatable, TaggedEvent {
    /// Files made into new entries, found already in the catalog, and failed.
    public var imported = 0, duplicates = 0, failed = 0
    /// Entries whose file was edited in place and re-made.
    public var updated = 0
    /// Files and folders met and deliberately not read (each reported with its reason).
    public var skipped = 0
    /// New entries that look like one already in the catalog (each also counted as imported or updated).
    public var nearDuplicates = 0
    /// True when the run was stopped (SIGINT/SIGTERM) before every file was examined.
    public var interrupted = false

    public init() {}

    /// Files examined so far (skipped ones not included).
    public var total: Int { imported + duplicates + failed + updated }

    mutating func count(_ event: ImportEvent) {
        switch event {
        case .imported: imported += 1
        case .duplicate: duplicates += 1
        case .failed: failed += 1
        case .updated: updated += 1
        case .skipped: skipped += 1
        case .nearDuplicate: nearDuplicates += 1
        case .warning: break
        }
    }

    public var eventName: String { "summary" }

    public var eventFields: [JSONField] {
        [("imported", imported), ("duplicates", duplicates), ("nearDuplicates", nearDuplicates), ("failed", failed), ("updated", updated),
         ("skipped", skipped), ("interrupted", interrupted)]
    }
}
