import Processing

/// What the animation harnesses (gif, apng, clip) do with one input: tell the format from the bytes
/// as import does, then decode it in a small window, so the fuzzer explores the container parsers
/// and FFmpeg's demuxers rather than spending its time on big frames.
enum FuzzAnimationInput {
    /// Few, small frames: a frame's size is still checked against the pixel limit before it is decoded.
    static let window = AnimationWindow(maxFrames: 8, maxPixels: FuzzLimits.maxPixels, workingSize: 128)

    static func run(_ data: UnsafePointer<UInt8>, _ size: Int) {
        let bytes = Array(UnsafeBufferPointer(start: data, count: size))
        _ = AnimationFormat.detect(bytes)
        _ = MediaFormat.detect(bytes)
        _ = try? AnimationDecoder.decode(bytes, window: window)
    }
}
