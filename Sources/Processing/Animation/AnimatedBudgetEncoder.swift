/// A file type an export may write for a moving sticker.
public enum AnimatedFileType: String, Sendable, Codable {
    /// Animated WebP (WhatsApp).
    case webp
    /// Animated PNG with one shared palette (Signal, iMessage, plain exports).
    case apng
    /// WebM with VP9 and an alpha channel (Telegram video stickers).
    case webm

    /// The file name extension: an APNG is a PNG to the apps that take it.
    public var fileExtension: String {
        switch self {
        case .webp: "webp"
        case .apng: "png"
        case .webm: "webm"
        }
    }

    /// Quality levels, best first: the encoder's quality, or for APNG the palette's size (0: full
    /// colour, no palette).
    var levels: [Int] {
        switch self {
        case .webp: [85, 75, 65, 55, 45, 35, 25, 15]
        case .apng: [0, 256, 192, 128, 96, 64, 48, 32, 16]
        case .webm: [80, 70, 60, 50, 40, 30, 20, 10]
        }
    }

    /// The name of one encoding in fit reports (`webp-q75`, `apng-128c`, `vp9-q60`).
    func encodingName(level: Int) -> String {
        switch self {
        case .webp: "webp-q\(level)"
        case .apng: level == 0 ? "apng" : "apng-\(level)c"
        case .webm: "vp9-q\(level)"
        }
    }

    func encode(_ clip: AnimationClip, level: Int) throws(ProcessingError) -> [UInt8] {
        switch self {
        case .webp: try WebPCodec.encodeAnimation(clip.frames, durations: clip.durations, mode: .lossy(quality: level))
        case .apng:
            level == 0
                ? try APNGEncoder.encode(clip.frames, durations: clip.durations)
                : try APNGEncoder.encodePalette(clip.frames, durations: clip.durations, colors: level)
        case .webm: try WebMEncoder.encode(clip.frames, durations: clip.durations, quality: level, frameRate: clip.steadyFrameRate)
        }
    }
}

/// What a platform allows a moving sticker, besides its canvas.
public struct AnimationLimits: Sendable, Equatable {
    /// The largest file, in bytes, inclusive; nil when there is no limit.
    public var maxBytes: Int?
    /// The longest running time; nil when there is no limit.
    public var maxMilliseconds: Int?
    /// The most frames a second, on a steady clock (the platform takes a constant frame rate only: every
    /// frame shows as long, see ``AnimationClip/steadied(atMost:within:)``); nil when there is no limit.
    public var maxFrameRate: Double?
    /// The shortest time a frame may show.
    public var minFrameMilliseconds: Int

    public init(maxBytes: Int?, maxMilliseconds: Int?, maxFrameRate: Double?, minFrameMilliseconds: Int = 1) {
        self.maxBytes = maxBytes
        self.maxMilliseconds = maxMilliseconds
        self.maxFrameRate = maxFrameRate
        self.minFrameMilliseconds = minFrameMilliseconds
    }

    /// The clip within the running time, frame rate and frame time allowed: rules, not choices.
    public func applied(to clip: AnimationClip) -> AnimationClip {
        var result = clip
        if let maxMilliseconds { result = result.shortened(toMilliseconds: maxMilliseconds) }
        if let maxFrameRate { result = result.steadied(atMost: maxFrameRate, within: maxMilliseconds) }
        return result.withFrames(atLeast: minFrameMilliseconds)
    }

    /// `clip` at `rate` frames a second at most: on a steady clock where the platform wants one, else the
    /// frame on screen at each tick, keeping the frames' own times.
    func slowed(_ clip: AnimationClip, to rate: Double) -> AnimationClip {
        guard let maxFrameRate else { return clip.resampled(toFrameRate: rate) }
        return clip.steadied(atMost: min(rate, maxFrameRate), within: maxMilliseconds)
    }
}

/// An animation encoded to fit a byte limit, and what was given up for it.
public struct FittedAnimation: Sendable, Equatable {
    public var bytes: [UInt8]
    public var type: AnimatedFileType
    /// `webp-q75`, `apng-128c`, `vp9-q60`.
    public var encoding: String
    public var frames: Int
    public var frameRate: Double
    public var milliseconds: Int
    /// What was changed to fit, in words (`30 → 15 fps`, `3.0 → 2.0 s`); empty when nothing was.
    public var steps: [String]
}

/// Encodes a moving sticker to fit a byte limit, giving up as little as it can, in this order:
/// fewer frames a second (down to 20, then 15), a lower quality (fewer colours for APNG) within a
/// floor at each rate, then 10 frames a second at any quality, then a shorter clip (two thirds,
/// half, a third). Each stage first checks its cheapest encoding, and searches its range only when
/// that fits. Deterministic: the same clip and limits give the same bytes.
public enum AnimatedBudgetEncoder {
    /// The outcome: a file that fits, or the smallest size reached.
    public enum Outcome: Sendable, Equatable {
        case fits(FittedAnimation)
        /// Nothing fitted; `smallest` is the best any encoding did.
        case tooLarge(smallest: Int, encoding: String, steps: [String])
    }

    /// One rung of the ladder: a frame-rate cap, a share of the running time, and the worst
    /// quality level allowed.
    struct Stage {
        var frameRate: Double?
        var share: Double
        var worstLevel: Int
    }

    static func stages(levelCount: Int) -> [Stage] {
        let last = levelCount - 1
        return [
            Stage(frameRate: nil, share: 1, worstLevel: min(3, last)),
            Stage(frameRate: 20, share: 1, worstLevel: min(4, last)),
            Stage(frameRate: 15, share: 1, worstLevel: min(5, last)),
            Stage(frameRate: 10, share: 1, worstLevel: last),
            Stage(frameRate: 10, share: 2.0 / 3, worstLevel: last),
            Stage(frameRate: 10, share: 0.5, worstLevel: last),
            Stage(frameRate: 10, share: 1.0 / 3, worstLevel: last),
        ]
    }

    /// `clip` (already on its canvas) as `type`, within `limits`. The steps are told against
    /// `original` (the running time and rate before the caller applied the limits), or the clip.
    public static func encode(
        _ clip: AnimationClip, as type: AnimatedFileType, limits: AnimationLimits, original: Timing? = nil
    ) throws(ProcessingError) -> Outcome {
        let reference = original ?? Timing(clip)
        let ruled = limits.applied(to: clip)
        let levels = type.levels
        let limit = limits.maxBytes ?? .max
        var smallest: (bytes: Int, encoding: String, steps: [String])?
        var tried: Set<String> = []

        func attempt(_ candidate: AnimationClip, level: Int) throws(ProcessingError) -> FittedAnimation? {
            let bytes = try type.encode(candidate, level: levels[level])
            let fitted = FittedAnimation(
                bytes: bytes, type: type, encoding: type.encodingName(level: levels[level]), frames: candidate.frames.count,
                frameRate: candidate.frameRate, milliseconds: candidate.milliseconds, steps: steps(from: reference, to: Timing(candidate)))
            if bytes.count < smallest?.bytes ?? .max { smallest = (bytes.count, fitted.encoding, fitted.steps) }
            return bytes.count <= limit ? fitted : nil
        }

        for stage in stages(levelCount: levels.count) {
            var candidate = ruled
            if stage.share < 1 { candidate = candidate.shortened(toMilliseconds: max(1, Int(Double(ruled.milliseconds) * stage.share))) }
            if let rate = stage.frameRate { candidate = limits.slowed(candidate, to: rate) }
            candidate = candidate.withFrames(atLeast: limits.minFrameMilliseconds)
            // Stages that change nothing (a clip already at 10 fps) are not encoded twice.
            let key = "\(candidate.frames.count)/\(candidate.milliseconds)/\(stage.worstLevel)"
            guard tried.insert(key).inserted else { continue }
            if let best = try attempt(candidate, level: 0) { return .fits(best) }
            guard var fitting = try attempt(candidate, level: stage.worstLevel) else { continue }
            // Level 0 did not fit and the worst did: the best level that fits lies between.
            var low = 1, high = stage.worstLevel - 1
            while low <= high {
                let middle = (low + high) / 2
                if let fitted = try attempt(candidate, level: middle) {
                    fitting = fitted
                    high = middle - 1
                } else {
                    low = middle + 1
                }
            }
            return .fits(fitting)
        }
        return .tooLarge(smallest: smallest?.bytes ?? 0, encoding: smallest?.encoding ?? "none", steps: smallest?.steps ?? [])
    }

    /// A clip's running time and frame rate.
    public struct Timing: Sendable, Equatable {
        public var milliseconds: Int
        public var frameRate: Double

        public init(_ clip: AnimationClip) {
            milliseconds = clip.milliseconds
            frameRate = clip.frameRate
        }
    }

    /// What differs between the source and what was encoded, in words.
    static func steps(from source: Timing, to encoded: Timing) -> [String] {
        var steps: [String] = []
        if encoded.milliseconds < source.milliseconds {
            steps.append("\(seconds(source.milliseconds)) → \(seconds(encoded.milliseconds)) s")
        }
        if encoded.frameRate < source.frameRate - 0.5 {
            steps.append("\(Int(source.frameRate.rounded())) → \(Int(encoded.frameRate.rounded())) fps")
        }
        return steps
    }

    /// Milliseconds as seconds with one decimal (`2.5`).
    static func seconds(_ milliseconds: Int) -> String {
        let tenths = (milliseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }
}
