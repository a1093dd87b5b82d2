import Processing

/// libFuzzer entry point over colour profiles: the bytes as an ICC profile handed to lcms2 (open,
/// transform to sRGB, apply), and as the containers that carry one (JPEG APP2, PNG iCCP).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICC(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ColorConverter.toSRGB(FuzzLimits.probe, from: .icc(bytes))
    if let profile = PNGCodec.iccProfile(bytes) { _ = ColorConverter.toSRGB(FuzzLimits.probe, from: .icc(profile)) }
    if size >= 2 {
        // Two bytes of nclx code points too.
        _ = ColorConverter.toSRGB(FuzzLimits.probe, from: .nclx(primaries: Int(bytes[0]), transfer: Int(bytes[1])))
    }
    return 0
}
