import Processing

/// libFuzzer entry point over the HEIF/AVIF path: libheif's parser and decoders behind our box
/// walk, the Exif item and colour profile reads, and the whole decoder (orientation, colour).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ImageFormat.detect(bytes)
    _ = try? HEIFCodec.readHeader(bytes)
    _ = try? HEIFCodec.decode(bytes, maxPixels: FuzzLimits.maxPixels, workingSize: 256)
    _ = try? PhotoDecoder.decode(bytes, options: DecodeOptions(maxPixels: FuzzLimits.maxPixels, workingSize: 256))
    return 0
}
