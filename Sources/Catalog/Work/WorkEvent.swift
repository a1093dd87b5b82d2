/// What a worker reports: one JSON object a line in `catalog work --json`.
public enum WorkEvent: Sendable, Equatable, TaggedEvent {
    /// A claimed file was committed: the import event it made (`imported`, `duplicate`, `failed`).
    case file(ImportEvent)
    /// A stale entry was re-made (or found touched, a copy, failed): the reprocess event it made.
    case reprocess(ReprocessEvent)
    /// The worker lost its claim on a file before committing (its lease ran out and another worker took
    /// the file): its result was discarded.
    case lost(path: String)

    public var eventName: String {
        switch self {
        case .file(let event): event.eventName
        case .reprocess(let event): event.eventName
        case .lost: "lost"
        }
    }

    public var eventFields: [JSONField] {
        switch self {
        case .file(let event): event.eventFields
        case .reprocess(let event): event.eventFields
        case .lost(let path): [("path", path)]
        }
    }
}

/// How a worker's run ended. JSON keys are the property names, with `"event": "summary"`.
public struct WorkSummary: Sendable, Equatable, TaggedEvent {
    /// Files made into new entries, found already in the catalog, and failed (files and stale entries).
    public var imported = 0, duplicates = 0, failed = 0
    /// Stale entries brought up to date (re-made, touched, resolved as copies).
    public var reprocessed = 0
    /// Results discarded because the claim was no longer this worker's.
    public var lost = 0
    /// Claims given back unfinished when the worker stopped.
    public var released = 0
    /// Claims it could not give back (signalled while its server was away): they wait for their leases to run out.
    public var leftClaimed = 0
    /// True when a signal stopped the worker.
    public var interrupted = false

    mutating func count(_ event: WorkEvent) {
        switch event {
        case .file(.imported), .file(.updated): imported += 1
        case .file(.duplicate): duplicates += 1
        case .file(.failed): failed += 1
        case .file: break
        case .reprocess(.failed): failed += 1
        case .reprocess: reprocessed += 1
        case .lost: lost += 1
        }
    }

    public var eventName: String { "summary" }

    public var eventFields: [JSONField] {
        [("imported", imported), ("duplicates", duplicates), ("failed", failed), ("reprocessed", reprocessed),
         ("lost", lost), ("released", released), ("leftClaimed", leftClaimed), ("interrupted", interrupted)]
    }
}
