/// libFuzzer entry point over clips: the `ftyp` brand and Matroska header checks, the ISO box walk,
/// and FFmpeg's MP4/MOV and Matroska/WebM demuxers and decoders, through the animation decoder import
/// uses (`FuzzAnimationInput`); seeded with tiny clips of each container made with ffmpeg.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzAnimationInput.run(data, size)
    return 0
}
