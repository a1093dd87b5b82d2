/// What `catalog copy` reports as it goes (one JSON object each with `--json`).
public enum CopyEvent: Sendable, Equatable, TaggedEvent {
    /// The copy starts (`resumedAfter`: the last entry id a previous run copied; nil for a new copy).
    case started(source: String, target: String, entries: Int, resumedAfter: Int64?)
    /// A batch was committed on the target: `copied` entries so far in this run, up to entry `lastID`.
    case batch(copied: Int, lastID: Int64)
    /// Packs and settings were copied and the target marked complete.
    case finished(copied: Int, packs: Int, settings: Int)

    public var eventName: String {
        switch self {
        case .started: "started"
        case .batch: "batch"
        case .finished: "finished"
        }
    }

    public var eventFields: [JSONField] {
        switch self {
        case .started(let source, let target, let entries, let resumedAfter):
            [("source", source), ("target", target), ("entries", entries), ("resumedAfter", resumedAfter)]
        case .batch(let copied, let lastID):
            [("copied", copied), ("lastID", lastID)]
        case .finished(let copied, let packs, let settings):
            [("copied", copied), ("packs", packs), ("settings", settings)]
        }
    }
}

/// How a copy ended.
public struct CopySummary: Sendable, Equatable, Encodable {
    /// Entries copied by this run.
    public var copied: Int
    /// The last entry id the target holds from the source.
    public var lastID: Int64?
    /// False when interrupted before packs and settings were copied: run the same copy again to continue.
    public var complete: Bool
    /// True when a signal stopped the copy between batches.
    public var interrupted: Bool
}
