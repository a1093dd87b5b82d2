import Processing

/// libFuzzer entry point over the PNG path: header, full decode, the eXIf chunk, the whole decoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? PNGCodec.readHeader(bytes)
    _ = try? PNGCodec.decode(bytes, maxPixels: FuzzLimits.maxPixels)
    _ = PNGCodec.exifChunk(bytes)
    _ = try? PhotoDecoder.decode(bytes, options: DecodeOptions(maxPixels: FuzzLimits.maxPixels, workingSize: 256))
    return 0
}
