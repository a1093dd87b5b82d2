import Processing

/// A change to an entry's part of a clip, as `catalog recut --clip START,DURATION --max-frames N` takes it:
/// `reset` (`--clip default`) goes back to the default part first; a span replaces the stored start and
/// duration; `maxFrames` replaces the stored cap. No change keeps the stored part.
public struct ClipChange: Sendable, Equatable {
    /// Start from the default part instead of the stored one.
    public var reset: Bool
    /// The new start, in seconds; nil keeps the stored one.
    public var startSeconds: Double?
    /// The new length, in seconds; nil keeps the stored one.
    public var durationSeconds: Double?
    /// The new frame cap; nil keeps the stored one.
    public var maxFrames: Int?

    public init(reset: Bool = false, startSeconds: Double? = nil, durationSeconds: Double? = nil, maxFrames: Int? = nil) {
        self.reset = reset
        self.startSeconds = startSeconds
        self.durationSeconds = durationSeconds
        self.maxFrames = maxFrames
    }

    /// No change: the stored part is kept.
    public static let keep = ClipChange()

    /// Whether the change asks for anything (a still entry refuses any).
    public var isEmpty: Bool { self == .keep }

    /// The part an entry has after this change, from the part it has now (nil: the default part, as stored).
    public func applied(to stored: ClipWindow?) -> ClipWindow? {
        var clip = reset ? ClipWindow.default : stored ?? .default
        if let startSeconds { clip.startSeconds = startSeconds }
        if let durationSeconds { clip.durationSeconds = durationSeconds }
        if let maxFrames { clip.maxFrames = maxFrames }
        return clip == .default ? nil : clip
    }
}
