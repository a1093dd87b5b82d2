import Processing

/// A change to an entry's guidance, as `catalog recut` takes it: `reset` clears the stored guidance first;
/// a `box` replaces the stored box; `include` and `exclude` points are added to the stored ones. A point
/// given again joins its new list and leaves the other (a pixel is kept or taken out, not both). No change
/// at all re-makes the cut-out with the guidance as stored.
public struct GuidanceChange: Sendable, Equatable {
    /// Start from no guidance instead of the stored one.
    public var reset: Bool
    /// The new box; nil keeps the stored one (none after `reset`).
    public var box: CutoutGuidance.Box?
    /// Points added to keep.
    public var include: [CutoutGuidance.Point]
    /// Points added to take out.
    public var exclude: [CutoutGuidance.Point]
    /// The change to the entry's part of a clip (`--clip`, `--max-frames`); it rides with the guidance, since
    /// both are the entry's choices and one re-make applies them together.
    public var clip: ClipChange

    public init(
        reset: Bool = false, box: CutoutGuidance.Box? = nil, include: [CutoutGuidance.Point] = [], exclude: [CutoutGuidance.Point] = [],
        clip: ClipChange = .keep
    ) {
        self.clip = clip
        self.reset = reset
        self.box = box
        self.include = include
        self.exclude = exclude
    }

    /// The guidance an entry has after this change, from the guidance it has now.
    public func applied(to stored: CutoutGuidance) -> CutoutGuidance {
        var guidance = reset ? CutoutGuidance.none : stored
        if let box { guidance.box = box }
        for point in include {
            guidance.exclude.removeAll { $0 == point }
            if !guidance.include.contains(point) { guidance.include.append(point) }
        }
        for point in exclude {
            guidance.include.removeAll { $0 == point }
            if !guidance.exclude.contains(point) { guidance.exclude.append(point) }
        }
        return guidance
    }
}
