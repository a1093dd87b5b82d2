/// An animated sticker as the catalog keeps it: one animated WebP of the sticker's frames (lossy
/// colour at ``storedQuality``, lossless alpha), with its frame count and running time. The entry's
/// still sticker is its first frame.
///
/// Measured on 512-pixel stickers of 3-second clips at 30 fps, per 10 seconds: a clean clip 3.0 MB,
/// one with strong sensor noise in every frame 5.3 MB (quality 85: 4.0 and 7.4 MB; lossless: over
/// 40 MB). libwebpmux's `minimize_size`, `allow_mixed` and key-frame spacing changed it by under 2 %:
/// the noise, not the container, is what costs.
public struct AnimatedSticker: Sendable, Equatable {
    /// The colour quality of the stored frames (alpha is always lossless).
    public static let storedQuality = 75

    public let webp: [UInt8]
    /// Its frames, and the whole animation's running time (one loop).
    public let frameCount, durationMilliseconds: Int

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
