import Processing

/// libFuzzer entry point over the JPEG path of the pipeline: header, scaled decode, EXIF, the whole decoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? JPEGCodec.readHeader(bytes)
    _ = try? JPEGCodec.decode(bytes, maxPixels: FuzzLimits.maxPixels, minimumLongSide: 256)
    _ = try? PhotoDecoder.decode(bytes, options: DecodeOptions(maxPixels: FuzzLimits.maxPixels, workingSize: 256))
    return 0
}
