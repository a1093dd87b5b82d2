import Processing

/// Why `catalog recut`, a save on the page or its preview changed nothing: each case leaves the entry (its
/// guidance, sticker and palette) as it was.
public enum RecutError: Error, Sendable, Equatable {
    /// No entry has this id.
    case entryNotFound(id: Int64)
    /// The new guidance does not fit the entry's upright photo, or is malformed (a usage error).
    case invalidGuidance(GuidanceError)
    /// The entry's photo was never decoded (unreadable, unsupported): there is no photo to guide.
    case noPhoto(id: Int64, reason: String)
    /// The entry's source file is gone.
    case sourceMissing(id: Int64, path: String)
    /// The entry's source file cannot be read.
    case sourceUnreadable(id: Int64, path: String, message: String)
    /// The source file now holds other bytes than the entry's: they are `reprocess`'s (or `import`'s) to take in first.
    case sourceChanged(id: Int64, path: String)
    /// The cut-out with the new guidance failed (no subject inside the box, say), or the model is missing.
    case processingFailed(id: Int64, ProcessingError)
    /// Another process changed the entry (its bytes or its guidance) while it was being re-made.
    case changedMeanwhile(id: Int64)
    /// A part of a clip was asked for an entry made from a still photo (a usage error).
    case notAClip(id: Int64)
    /// The catalog failed (busy, disk full, ...).
    case catalog(CatalogError)


    /// A message a user understands: the entry, the problem, what to do.
    public var description: String {
        switch self {
        case .entryNotFound(let id):
            "no entry with id \(id) (see `catalog list`)"
        case .invalidGuidance(let error):
            error.description
        case .noPhoto(let id, let reason):
            "entry \(id) has no photo to guide: it was never decoded (\(reason))"
        case .sourceMissing(let id, let path):
            "entry \(id): its source \(path) is missing; nothing was changed"
        case .sourceUnreadable(let id, let path, let message):
            "entry \(id): its source \(path) cannot be read (\(message)); nothing was changed"
        case .sourceChanged(let id, let path):
            "entry \(id): its source \(path) holds other bytes than the entry's now; run `catalog reprocess` (or import the file) first; nothing was changed"
        case .processingFailed(let id, let error):
            "entry \(id): the cut-out failed: \(error.errorDescription ?? error.code) [\(error.code)]; the entry was left as it was"
        case .changedMeanwhile(let id):
            "entry \(id) was changed by another process meanwhile; nothing was written, run the command again"
        case .notAClip(let id):
            "entry \(id) is a still photo: --clip and --max-frames choose the part of a clip or animation; nothing was changed"
        case .catalog(let error):
            error.errorDescription ?? "\(error)"
        }
    }
}
