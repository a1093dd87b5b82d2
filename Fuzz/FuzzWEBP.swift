import Processing

/// libFuzzer entry point over the WebP path: the RIFF chunk walk (EXIF, ICCP), libwebp's scaled
/// decode, and the whole decoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = WebPChunks.exif(bytes)
    _ = WebPChunks.iccProfile(bytes)
    _ = try? WebPCodec.decodeScaled(bytes, maxPixels: FuzzLimits.maxPixels, workingSize: 256)
    _ = try? PhotoDecoder.decode(bytes, options: DecodeOptions(maxPixels: FuzzLimits.maxPixels, workingSize: 256))
    return 0
}
