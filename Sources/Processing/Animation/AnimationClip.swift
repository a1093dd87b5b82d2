/// Frames of one size with their display times, as an export shapes them: fewer frames a second,
/// a shorter run, frames no shorter than a platform allows. A value type that crosses tasks.
public struct AnimationClip: Sendable, Equatable {
    /// Never empty; all one size.
    public private(set) var frames: [RGBAImage]
    /// Milliseconds each frame shows (each at least 1).
    public private(set) var durations: [Int]
    /// The frames a second of the constant clock every frame is on, when ``steadied(atMost:within:)``
    /// put them there (each shows one tick, to the millisecond); nil for any other timing.
    public internal(set) var steadyFrameRate: Double?

    public init(frames: [RGBAImage], durations: [Int]) {
        precondition(!frames.isEmpty && frames.count == durations.count, "AnimationClip: \(frames.count) frames, \(durations.count) durations")
        self.frames = frames
        self.durations = durations.map { max(1, $0) }
    }

    /// One loop's running time.
    public var milliseconds: Int { durations.reduce(0, +) }

    /// Frames a second, on average.
    public var frameRate: Double { Double(frames.count) * 1000 / Double(max(1, milliseconds)) }

    /// The same frames, each changed by `transform` (placed on a canvas, say).
    public func mapFrames(_ transform: (RGBAImage) throws(ProcessingError) -> RGBAImage) throws(ProcessingError) -> AnimationClip {
        var result = self
        for index in frames.indices { result.frames[index] = try transform(frames[index]) }
        return result
    }

    /// The first `limit` milliseconds: later frames dropped, the last one kept cut short.
    public func shortened(toMilliseconds limit: Int) -> AnimationClip {
        guard milliseconds > limit, limit > 0 else { return self }
        var result = AnimationClip(frames: [frames[0]], durations: [min(durations[0], limit)])
        var elapsed = result.durations[0]
        for index in frames.indices.dropFirst() where elapsed < limit {
            result.frames.append(frames[index])
            result.durations.append(min(durations[index], limit - elapsed))
            elapsed += result.durations[result.durations.count - 1]
        }
        return result
    }

    /// At most `rate` frames a second over the same running time: the frame on screen at each tick
    /// of a `1000 / rate` ms clock is kept and shown until the next kept one, so motion keeps its pace.
    public func resampled(toFrameRate rate: Double) -> AnimationClip {
        guard rate > 0, frameRate > rate + 0.01 else { return self }
        let interval = 1000 / rate
        var kept: [(frame: Int, start: Int)] = []
        var start = 0
        var nextTick = 0.0
        for index in frames.indices {
            let end = start + durations[index]
            if Double(end) > nextTick {
                kept.append((index, start))
                // The next tick after this frame's start: a long frame covers several ticks.
                while nextTick < Double(end) { nextTick += interval }
            }
            start = end
        }
        return AnimationClip(timing: kept, total: milliseconds, from: frames)
    }

    /// Every frame shown at least `minimum` milliseconds: a shorter one is merged into the frame
    /// before it (the first into the next), the running time unchanged.
    public func withFrames(atLeast minimum: Int) -> AnimationClip {
        guard minimum > 1, durations.contains(where: { $0 < minimum }), milliseconds >= minimum else { return self }
        var kept: [(frame: Int, start: Int)] = []
        var start = 0
        for index in frames.indices {
            if let last = kept.last, start - last.start < minimum {
                // The frame on screen has not shown long enough yet: this one is skipped.
            } else {
                kept.append((index, start))
            }
            start += durations[index]
        }
        // The last kept frame may itself be too short: it is merged into the one before.
        if kept.count > 1, milliseconds - kept[kept.count - 1].start < minimum { kept.removeLast() }
        return AnimationClip(timing: kept, total: milliseconds, from: frames)
    }

    /// The kept frames, each shown until the next one starts, the last until `total`.
    private init(timing kept: [(frame: Int, start: Int)], total: Int, from frames: [RGBAImage]) {
        var durations: [Int] = []
        for (position, entry) in kept.enumerated() {
            let end = position + 1 < kept.count ? kept[position + 1].start : total
            durations.append(end - entry.start)
        }
        self.init(frames: kept.map { frames[$0.frame] }, durations: durations)
    }
}

extension AnimatedSticker {
    /// The stored animation's frames and display times, decoded whole (no window, no scaling).
    public func clip(maxPixels: Int = DecodeOptions.defaultMaxPixels) throws(ProcessingError) -> AnimationClip {
        let window = AnimationWindow(
            start: 0, duration: Double(durationMilliseconds) / 1000 + 1, maxFrames: max(1, frameCount),
            maxFrameRate: 1000, maxPixels: maxPixels, workingSize: nil)
        let decoded = try WebPCodec.decodeAnimation(webp, window: window)
        return AnimationClip(frames: decoded.frames.map(\.image), durations: decoded.frames.map(\.durationMilliseconds))
    }
}
