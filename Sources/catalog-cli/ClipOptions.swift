import ArgumentParser
import Catalog
import Processing

/// `--clip START,DURATION` and `--max-frames N` of `import` and `recut`: which part of a clip or animation
/// becomes the animated sticker. Stills have no part to choose: `import` ignores the options for them,
/// `recut` of a still refuses them.
struct ClipOptions: ParsableArguments {
    /// What `--clip` said: a part, or back to the default part.
    enum Span: Equatable {
        case part(start: Double, duration: Double)
        case `default`
    }

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The part of each clip or animation to make into the sticker: start and length in seconds, e.g. 2.5,3 (default: the first 3 s). `default` goes back to it.",
            valueName: "START,DURATION"),
        transform: ClipOptions.span)
    var clip: Span?

    @Option(
        name: .customLong("max-frames"), parsing: .unconditional,
        help: "At most this many frames in an animated sticker, 1 to \(ClipWindow.maxFramesLimit) (default 90); the part ends early when there would be more.",
        transform: OptionValue.whole("--max-frames", 1...ClipWindow.maxFramesLimit))
    var maxFrames: Int?

    /// The change `recut` applies to an entry's stored part.
    var change: ClipChange {
        switch clip {
        case .part(let start, let duration)?: ClipChange(startSeconds: start, durationSeconds: duration, maxFrames: maxFrames)
        case .default?: ClipChange(reset: true, maxFrames: maxFrames)
        case nil: ClipChange(maxFrames: maxFrames)
        }
    }

    /// The part new entries take on `import` (nil: the default part).
    var window: ClipWindow? { change.applied(to: nil) }

    /// `START,DURATION` in seconds, or `default`: a usage error (64) with the form expected otherwise.
    static let span: @Sendable (String) throws -> Span = { text in
        if text == "default" { return .default }
        guard let (start, duration) = ClipWindow.span(parsing: text) else {
            throw ValidationError("--clip must be START,DURATION in seconds, e.g. 2,3 (a start of 0 or more, a length above 0), or `default`; not '\(text)'")
        }
        return .part(start: start, duration: duration)
    }
}
