/// What a worker reports: one JSON object a line in `catalog work --json`.
public enum WorkEvent: Sendable, Equatable, Encodable {
    /// A claimed file was committed: the import event it made (`imported`, `duplicate`, `failed`).
    case file(ImportEvent)
    /// A stale entry was re-made (or found touched, a copy, failed): the reprocess event it made.
    case reprocess(ReprocessEvent)
    /// The worker lost its claim on a file before committing (its lease ran out and another worker took
    /// the file): its result was discarded.
    case lost(path: String)

    private enum CodingKeys: String, CodingKey { case event, path }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .file(let event):
            try event.encode(to: encoder)
        case .reprocess(let event):
            try event.encode(to: encoder)
        case .lost(let path):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("lost", forKey: .event)
            try container.encode(path, forKey: .path)
        }
    }
}

/// How a worker's run ended. JSON keys are the property names, with `"event": "summary"`.
public struct WorkSummary: Sendable, Equatable, Encodable {
    public var imported = 0
    public var duplicates = 0
    public var failed = 0
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

    private enum CodingKeys: String, CodingKey { case event, imported, duplicates, failed, reprocessed, lost, released, leftClaimed, interrupted }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("summary", forKey: .event)
        try container.encode(imported, forKey: .imported)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(failed, forKey: .failed)
        try container.encode(reprocessed, forKey: .reprocessed)
        try container.encode(lost, forKey: .lost)
        try container.encode(released, forKey: .released)
        try container.encode(leftClaimed, forKey: .leftClaimed)
        try container.encode(interrupted, forKey: .interrupted)
    }
}
