/// Picks the frames of a window from a stream of decoded frames with their source times, keeping
/// at most `maxFrameRate` a second and `maxFrames` in all, and works out each kept frame's display
/// time. Shared by the FFmpeg and libwebp decoders so every format follows the same rules.
struct FrameSampler {
    private let window: AnimationWindow
    private let interval: Double
    /// Kept frames and their start times in seconds from the window's start.
    private var kept: [(image: RGBAImage, start: Double)] = []
    /// The latest frame seen before the window, shown at its start if no frame starts exactly there.
    private var pending: RGBAImage?
    private var nextSlot = 0.0
    /// The time the last kept frame stops showing, once known.
    private var end: Double?

    init(window: AnimationWindow) {
        self.window = window
        interval = 1 / window.maxFrameRate
    }

    /// True once no later frame can be kept: decoding may stop.
    var isFinished: Bool { end != nil }
    /// How many frames were offered, kept or not.
    private(set) var offered = 0

    /// Takes a frame shown from `time` (seconds from the source's start); `image` builds its pixels
    /// and is called only when the frame is kept.
    mutating func offer(time: Double, image: () throws(ProcessingError) -> RGBAImage) throws(ProcessingError) {
        guard !isFinished else { return }
        offered += 1
        if time < window.start {
            pending = try image()
            return
        }
        let relative = time - window.start
        if relative >= window.duration - tolerance {
            end = window.duration
            return
        }
        if kept.isEmpty, let pending, relative > tolerance {
            // The frame on screen when the window opens shows until this one.
            kept.append((pending, 0))
            self.pending = nil
            nextSlot = interval
        }
        guard relative >= nextSlot - tolerance else { return }
        // Only a frame that would be kept ends the window at the cap; a dropped one shows nothing new.
        if kept.count == window.maxFrames {
            end = relative
            return
        }
        kept.append((try image(), relative))
        nextSlot = (relative / interval + tolerance / interval).rounded(.down) * interval + interval
    }

    /// The kept frames; `sourceEnd` (seconds from the source's start) is when the last source frame
    /// stops showing, for a stream that ran out inside the window.
    mutating func finish(sourceEnd: Double?) -> [DecodedAnimation.Frame] {
        if kept.isEmpty, let pending, let sourceEnd, sourceEnd - window.start > tolerance {
            kept.append((pending, 0))
        }
        guard !kept.isEmpty else { return [] }
        let last = kept[kept.count - 1].start
        var stop = end ?? min(window.duration, (sourceEnd ?? .infinity) - window.start)
        if !(stop > last) || !stop.isFinite { stop = last + interval }
        var frames: [DecodedAnimation.Frame] = []
        frames.reserveCapacity(kept.count)
        for (index, frame) in kept.enumerated() {
            let next = index + 1 < kept.count ? kept[index + 1].start : stop
            let startMilliseconds = Int((frame.start * 1000).rounded())
            let endMilliseconds = max(startMilliseconds + 1, Int((next * 1000).rounded()))
            frames.append(.init(image: frame.image, startMilliseconds: startMilliseconds, durationMilliseconds: endMilliseconds - startMilliseconds))
        }
        return frames
    }

    /// Source clocks are rational; a frame a hair before its slot still takes it.
    private var tolerance: Double { 0.001 }
}
