/// An animated sticker as the catalog keeps it: one animated WebP of the sticker's frames (lossy
/// colour at ``storedQuality``, lossless alpha: a 10-second clip at 30 fps of a grainy subject is
/// about 4 MB, where lossless would be over 40), with its frame count and running time.
/// The entry's still sticker is its first frame.
public struct AnimatedSticker: Sendable, Equatable {
    /// The colour quality of the stored frames (alpha is always lossless).
    public static let storedQuality = 85

    public let webp: [UInt8]
    public let frameCount: Int
    /// The whole animation's running time, one loop.
    public let durationMilliseconds: Int

    public init(webp: [UInt8], frameCount: Int, durationMilliseconds: Int) {
        self.webp = webp
        self.frameCount = frameCount
        self.durationMilliseconds = durationMilliseconds
    }

    /// The stored form of `frames` (one size), frame i shown for `durations[i]` milliseconds.
    public init(frames: [RGBAImage], durations: [Int]) throws(ProcessingError) {
        let webp = try WebPCodec.encodeAnimation(frames, durations: durations, mode: .lossy(quality: Self.storedQuality))
        self.init(webp: webp, frameCount: frames.count, durationMilliseconds: durations.reduce(0) { $0 + max(1, $1) })
    }

    /// Frames a second, on average.
    public var frameRate: Double { Double(frameCount) * 1000 / Double(max(1, durationMilliseconds)) }
}
