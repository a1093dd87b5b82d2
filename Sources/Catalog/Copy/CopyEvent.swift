/// What `catalog copy` reports as it goes (one JSON object each with `--json`).
public enum CopyEvent: Sendable, Equatable, Encodable {
    /// The copy starts (`resumedAfter`: the last entry id a previous run copied; nil for a new copy).
    case started(source: String, target: String, entries: Int, resumedAfter: Int64?)
    /// A batch was committed on the target: `copied` entries so far in this run, up to entry `lastID`.
    case batch(copied: Int, lastID: Int64)
    /// Packs and settings were copied and the target marked complete.
    case finished(copied: Int, packs: Int, settings: Int)

    private enum CodingKeys: String, CodingKey {
        case event, source, target, entries, resumedAfter, copied, lastID, packs, settings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .started(let source, let target, let entries, let resumedAfter):
            try container.encode("started", forKey: .event)
            try container.encode(source, forKey: .source)
            try container.encode(target, forKey: .target)
            try container.encode(entries, forKey: .entries)
            try container.encode(resumedAfter, forKey: .resumedAfter)
        case .batch(let copied, let lastID):
            try container.encode("batch", forKey: .event)
            try container.encode(copied, forKey: .copied)
            try container.encode(lastID, forKey: .lastID)
        case .finished(let copied, let packs, let settings):
            try container.encode("finished", forKey: .event)
            try container.encode(copied, forKey: .copied)
            try container.encode(packs, forKey: .packs)
            try container.encode(settings, forKey: .settings)
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
