import Processing

/// libFuzzer entry point over the EXIF readers: a JPEG's APP1 segment and a raw TIFF block (PNG eXIf).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEXIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ExifReader.read(fromJPEG: bytes)
    _ = ExifReader.read(tiffBlock: bytes)
    return 0
}
