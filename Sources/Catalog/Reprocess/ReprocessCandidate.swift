import Processing

/// An entry `catalog reprocess` looks at: what the catalog recorded about it, and the reasons known
/// before its file is read.
public struct ReprocessCandidate: Sendable, Equatable {
    /// What the catalog's source check found.
    public enum Source: Sendable, Equatable {
        /// Same size and modification time as recorded.
        case unchanged
        /// Size or modification time differ: the bytes are hashed to tell a change from a touch.
        case differs
        /// The file is gone.
        case missing
    }

    public var id: Int64
    /// nil for a file that could not be read at all when it was imported.
    public var sha256: String?
    public var path: String
    /// Whether the entry had a sticker (status ok).
    public var hasSticker: Bool
    /// Reasons from the catalog alone (pipeline, settings, failed); `source-changed` is added once the bytes are hashed.
    public var reasons: [StaleReason]
    public var source: Source
    /// The entry's cut-out guidance, applied to its re-made cut-out; the commit checks it is still the stored one.
    public var guidance: CutoutGuidance = .none
    /// The entry's chosen part of a clip (nil: the default part), taken by its re-made cut-out.
    public var clip: ClipWindow? = nil
}
