/// libFuzzer entry point over APNGs: the PNG chunk walk (`acTL` before `IDAT`, loop count, truncation)
/// and FFmpeg's APNG demuxer and decoder, through the animation decoder import uses
/// (`FuzzAnimationInput`); seeded with the corpus's animated PNGs and a few made with ffmpeg.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzAnimationInput.run(data, size)
    return 0
}
