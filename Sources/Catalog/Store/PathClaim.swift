import Processing

/// The entry a path belongs to, so that a file edited in place updates its entry instead of making a
/// second one for the same path.
public struct PathClaim: Sendable, Equatable {
    /// The entry recorded at the path.
    public var id: Int64
    /// The hash of the bytes the entry was made from.
    public var sha256: String
    /// The entry's cut-out guidance: the new bytes are cut out with it (it must fit them, see ``GuidedAttempt``).
    public var guidance: CutoutGuidance = .none
    /// The entry's chosen part of a clip: the new bytes are cut from the same part (nil: the default).
    public var clip: ClipWindow? = nil
}
