/// What happened to one file during an import: one JSON object a line in `--json` output.
public enum ImportEvent: Sendable, Equatable, Encodable {
    /// A new entry was catalogued (id nil in a dry run).
    case imported(id: Int64?, path: String)
    /// The same bytes were already catalogued; `moved` when the entry's path was updated to this one.
    case duplicate(id: Int64, path: String, moved: Bool)
    /// The file could not be imported; recorded as a failed entry when `id` is not nil.
    case failed(id: Int64?, path: String, code: String, message: String)
    /// A problem that did not stop the file (an unusable colour profile, taken as sRGB); the file's
    /// own event follows. Not counted in the summary.
    case warning(path: String, message: String)

    private enum CodingKeys: String, CodingKey { case event, id, path, error, moved, message }
    private enum ErrorKeys: String, CodingKey { case code, message }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .imported(let id, let path):
            try container.encode("imported", forKey: .event)
            try container.encode(id, forKey: .id)
            try container.encode(path, forKey: .path)
        case .duplicate(let id, let path, let moved):
            try container.encode("duplicate", forKey: .event)
            try container.encode(id, forKey: .id)
            try container.encode(path, forKey: .path)
            try container.encode(moved, forKey: .moved)
        case .failed(let id, let path, let code, let message):
            try container.encode("failed", forKey: .event)
            try container.encode(id, forKey: .id)
            try container.encode(path, forKey: .path)
            var error = container.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error)
            try error.encode(code, forKey: .code)
            try error.encode(message, forKey: .message)
        case .warning(let path, let message):
            try container.encode("warning", forKey: .event)
            try container.encode(path, forKey: .path)
            try container.encode(message, forKey: .message)
        }
    }
}

/// The totals of an import: the last JSON object of `--json` output.
public struct ImportSummary: Sendable, Equatable, Encodable {
    public var imported = 0
    public var duplicates = 0
    public var failed = 0
    /// True when the run was stopped (SIGINT/SIGTERM) before every file was examined.
    public var interrupted = false

    public init() {}

    /// Files examined so far.
    public var total: Int { imported + duplicates + failed }

    mutating func count(_ event: ImportEvent) {
        switch event {
        case .imported: imported += 1
        case .duplicate: duplicates += 1
        case .failed: failed += 1
        case .warning: break
        }
    }

    private enum CodingKeys: String, CodingKey { case event, imported, duplicates, failed, interrupted }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("summary", forKey: .event)
        try container.encode(imported, forKey: .imported)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(failed, forKey: .failed)
        try container.encode(interrupted, forKey: .interrupted)
    }
}
