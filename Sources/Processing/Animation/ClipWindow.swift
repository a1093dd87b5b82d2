/// The part of a clip or animation an entry's animated sticker is cut from, as a person chose it
/// (`import`/`recut --clip START,DURATION --max-frames N`): where it starts and how long it lasts in
/// seconds, and how many frames it may hold. Like guidance it belongs to the entry, so every later
/// cut-out of the entry (reprocess, work, an edit in place, a copy) takes the same part.
/// JSON: `{"durationSeconds","maxFrames","startSeconds"}`.
public struct ClipWindow: Sendable, Equatable, Hashable, Codable {
    /// The part taken when none is chosen: the first 3 seconds, at most 90 frames.
    public static let `default` = ClipWindow(startSeconds: 0, durationSeconds: 3, maxFrames: 90)
    /// The most frames a window may hold (10 s at 30 frames a second).
    public static let maxFramesLimit = 300

    public var startSeconds: Double
    public var durationSeconds: Double
    public var maxFrames: Int

    /// `START,DURATION` in seconds (decimals allowed), as `--clip` takes it; nil when the text is not
    /// two numbers with a start of 0 or more and a duration above 0.
    public static func span(parsing text: String) -> (start: Double, duration: Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = seconds(parts[0]), let duration = seconds(parts[1]), duration > 0 else { return nil }
        return (start, duration)
    }

    /// A plain decimal (`2`, `2.5`, `.5`), not `1e3`, `inf` or `nan`: what a person types for seconds.
    private static func seconds(_ text: Substring) -> Double? {
        let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              trimmed.filter({ $0 == "." }).count <= 1, let value = Double(String(trimmed)), value.isFinite, value < 86_400
        else { return nil }
        return value
    }
}

extension AnimationWindow {
    /// This window with the part `clip` chooses (its start, duration and frame cap); the limits that
    /// are the catalog's (frame rate, pixels, working size) stay.
    public func taking(_ clip: ClipWindow) -> AnimationWindow {
        var window = self
        window.start = clip.startSeconds
        window.duration = clip.durationSeconds
        window.maxFrames = clip.maxFrames
        return window
    }
}
