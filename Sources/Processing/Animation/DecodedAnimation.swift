/// An animation decoded for processing: upright RGBA frames with their display times, taken from a
/// window of a clip or animated image. A value type, so it crosses tasks like `RGBAImage`.
public struct DecodedAnimation: Sendable, Equatable {
    /// One frame and how long it shows.
    public struct Frame: Sendable, Equatable {
        public let image: RGBAImage
        /// When the frame appears, in milliseconds from the window's start.
        public let startMilliseconds: Int
        /// How long it shows, in milliseconds. Times are rounded from the source's own clock as a
        /// running total, so the durations add up to the animation's length with no drift.
        public let durationMilliseconds: Int
    }

    public let format: AnimationFormat
    /// The source's size after its rotation is applied (frames may be smaller: see
    /// `AnimationWindow.workingSize`).
    public let width, height: Int
    /// Never empty.
    public let frames: [Frame]
    /// How often the source asks to be played: 0 forever, nil when the format does not say
    /// (clips). GIF, APNG and WebP carry it.
    public let loopCount: Int?
    /// What a clip's container says of where, when and with what it was filmed (QuickTime/MP4
    /// tags: make, model, creation date, ISO 6709 location), in the fields photos' EXIF fills; nil
    /// when it says none of them, and for animated images.
    public var exif: ExifMetadata? = nil

    /// The window's length as played: the sum of the frames' durations.
    public var durationMilliseconds: Int { frames.last.map { $0.startMilliseconds + $0.durationMilliseconds } ?? 0 }
}

/// Which part of an animation to decode, and the limits that apply before any frame is decoded.
public struct AnimationWindow: Sendable, Equatable {
    /// Where the window starts, in seconds from the source's start.
    public var start: Double
    /// How long the window lasts, in seconds.
    public var duration: Double
    /// At most this many frames (the window ends early when there would be more).
    public var maxFrames: Int
    /// At most this many frames a second: frames in between are dropped and the kept ones shown longer.
    public var maxFrameRate: Double
    /// A frame with more pixels than this is refused (`.tooLarge`), as for stills.
    public var maxPixels: Int
    /// Frames are scaled down to this long side when larger; nil keeps the source's size.
    public var workingSize: Int?

    public init(
        start: Double = 0, duration: Double = 3, maxFrames: Int = 90, maxFrameRate: Double = 30,
        maxPixels: Int = DecodeOptions.defaultMaxPixels, workingSize: Int? = 1024
    ) {
        self.start = start
        self.duration = duration
        self.maxFrames = maxFrames
        self.maxFrameRate = maxFrameRate
        self.maxPixels = maxPixels
        self.workingSize = workingSize
    }

    var end: Double { start + duration }

    /// Throws when the window cannot hold a frame whatever the source.
    func validate() throws(ProcessingError) {
        guard start >= 0, start.isFinite, duration > 0, duration.isFinite else {
            throw .noFrames("the window \(start) s + \(duration) s is empty or negative")
        }
        guard maxFrames > 0, maxFrameRate > 0 else { throw .noFrames("the window allows no frames (maxFrames \(maxFrames), \(maxFrameRate) fps)") }
    }

    /// Throws `.noFrames` when the source is known to end before the window starts.
    func check(sourceDuration: Double?) throws(ProcessingError) {
        if let sourceDuration, sourceDuration > 0, start >= sourceDuration {
            throw .noFrames(String(format: "the window starts at %.3f s, the animation lasts %.3f s", start, sourceDuration))
        }
    }
}
