/// libFuzzer entry point over animated GIFs: the GIF block walk (frame count, NETSCAPE2.0 loop count,
/// truncation) and FFmpeg's GIF demuxer and decoder, through the animation decoder import uses
/// (`FuzzAnimationInput`); seeded with the corpus's GIFs and a few made with ffmpeg.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzAnimationInput.run(data, size)
    return 0
}
