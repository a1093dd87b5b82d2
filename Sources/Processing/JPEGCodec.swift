import CTurboJPEG

/// JPEG decoding and encoding through TurboJPEG (libjpeg-turbo). TurboJPEG reports failures as
/// return codes (its own `setjmp` never crosses a Swift frame); every handle is created, checked and
/// destroyed inside one call here, and every failure becomes a `ProcessingError`.
///
/// CMYK and YCCK JPEGs (as written by print workflows) are decoded to CMYK and converted to RGB
/// here, because libjpeg-turbo cannot convert them to RGB itself. Adobe applications store the
/// ink values inverted, so a file with an Adobe APP14 segment is read as inverted CMYK.
public enum JPEGCodec {
    /// The flags of the first decode: a warning (such as "Premature end of JPEG file") is an error,
    /// and progressive files with absurd numbers of scans (a decode-time bomb) are refused.
    private static let strictFlags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
    /// The flags of the second decode, for complete files that only raised a recoverable warning.
    private static let tolerantFlags = TJFLAG_LIMITSCANS

    /// The pixel size in the JPEG's frame header, without decoding any pixels.
    public static func readHeader(_ bytes: [UInt8]) throws(ProcessingError) -> (width: Int, height: Int) {
        let header = try withDecompressor { handle throws(ProcessingError) in try readHeader(bytes, handle: handle) }
        return (header.width, header.height)
    }

    /// Decodes to RGBA at the smallest DCT scale (1/8 ... 1/1) whose long side still covers
    /// `minimumLongSide`, after refusing images over `maxPixels` (checked on the header alone).
    public static func decode(_ bytes: [UInt8], maxPixels: Int, minimumLongSide: Int) throws(ProcessingError) -> RGBAImage {
        try decodeScaled(bytes, maxPixels: maxPixels, minimumLongSide: minimumLongSide).image
    }

    /// `decode(_:maxPixels:minimumLongSide:)`, also returning the full size from the header.
    static func decodeScaled(
        _ bytes: [UInt8], maxPixels: Int, minimumLongSide: Int
    ) throws(ProcessingError) -> (image: RGBAImage, fullWidth: Int, fullHeight: Int) {
        try withDecompressor { handle throws(ProcessingError) in
            let header = try readHeader(bytes, handle: handle)
            let (pixelCount, overflow) = header.width.multipliedReportingOverflow(by: header.height)
            guard !overflow, pixelCount <= maxPixels else {
                throw .tooLarge(width: header.width, height: header.height, limit: maxPixels)
            }
            let factor = scalingFactor(width: header.width, height: header.height, minimumLongSide: minimumLongSide)
            let width = scaled(header.width, by: factor)
            let height = scaled(header.height, by: factor)
            guard width > 0, height > 0, width <= Int(Int32.max) / 4 else {
                throw .corruptImage("invalid scaled size \(width)x\(height)")
            }
            let (count, countOverflow) = (width * 4).multipliedReportingOverflow(by: height)
            guard !countOverflow else { throw .tooLarge(width: header.width, height: header.height, limit: maxPixels) }

            let isCMYK = header.colorspace == Int32(TJCS_CMYK.rawValue) || header.colorspace == Int32(TJCS_YCCK.rawValue)
            let pixelFormat = isCMYK ? TJPF_CMYK : TJPF_RGBA
            var failure: ProcessingError?
            var pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
                // On failure the buffer is discarded unread; UInt8 needs no deinitialization.
                initializedCount = count
                func decompress(flags: Int32) -> Int32 {
                    bytes.withUnsafeBufferPointer { source in
                        tjDecompress2(
                            handle, source.baseAddress, UInt(source.count), buffer.baseAddress,
                            Int32(width), 0, Int32(height), Int32(pixelFormat.rawValue), flags)
                    }
                }
                guard decompress(flags: strictFlags) != 0 else { return }
                let error = decodeError(handle)
                // A warning other than truncation ("N extraneous bytes before marker", common in
                // camera and editor output) stopped the strict pass. Viewers show such files, so
                // decode again tolerating warnings, but only when the data is complete (an EOI
                // follows the scan data): the tolerant pass would grey-fill a truncated image.
                guard case .corruptImage = error, isWarning(handle) else {
                    failure = error
                    return
                }
                guard JPEGSegments.hasEndOfImageAfterScan(bytes) else {
                    failure = .truncated("Premature end of JPEG file")
                    return
                }
                if decompress(flags: tolerantFlags) != 0, !isWarning(handle) { failure = decodeError(handle) }
            }
            if let failure { throw failure }
            if isCMYK {
                convertCMYKToRGBA(&pixels, inverted: JPEGSegments.hasAdobeMarker(in: bytes))
            }
            return (RGBAImage(width: width, height: height, pixels: pixels), header.width, header.height)
        }
    }

    /// Encodes as a baseline JPEG with 4:2:0 chroma subsampling; alpha is ignored.
    /// `quality` is clamped to 1...100.
    public static func encode(_ image: RGBAImage, quality: Int = 90) throws(ProcessingError) -> [UInt8] {
        // JPEG frame headers hold 16-bit sizes; libjpeg's own limit is 65500.
        guard image.width <= 65_500, image.height <= 65_500 else {
            throw .encodingFailed("\(image.width)x\(image.height) is larger than JPEG allows (65500 a side)")
        }
        guard let handle = tjInitCompress() else {
            throw .encodingFailed("could not create a JPEG encoder")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var outputSize: UInt = 0
        defer { if let output { tjFree(output) } }
        let status = image.pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGBA.rawValue),
                &output, &outputSize, Int32(TJSAMP_420.rawValue), Int32(min(max(quality, 1), 100)), 0)
        }
        guard status == 0, let output, outputSize > 0 else {
            throw .encodingFailed(errorText(handle))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }

    // MARK: - Internals

    private struct Header {
        var width: Int
        var height: Int
        var colorspace: Int32
    }

    /// Runs `body` with a fresh decompressor that is destroyed on every path.
    private static func withDecompressor<T>(
        _ body: (tjhandle) throws(ProcessingError) -> T
    ) throws(ProcessingError) -> T {
        guard let handle = tjInitDecompress() else {
            throw .corruptImage("could not create a JPEG decoder")
        }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    private static func readHeader(_ bytes: [UInt8], handle: tjhandle) throws(ProcessingError) -> Header {
        guard !bytes.isEmpty else { throw .truncated("empty file") }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { source in
            tjDecompressHeader3(handle, source.baseAddress, UInt(source.count), &width, &height, &subsampling, &colorspace)
        }
        // A warning in the headers ("N extraneous bytes before marker") fails the call, but the
        // size is read; the decode passes decide whether the file is usable.
        guard status == 0 || isWarning(handle), width > 0, height > 0 else {
            // Data that ends inside the headers comes back as an error ("missing SOS marker"), or
            // as success with size 0 (a "tables-only" stream, whose message would be stale); the
            // marker walk tells truncation from garbage.
            let error: ProcessingError = status == 0 ? .corruptImage("no image in the JPEG data (only tables)") : decodeError(handle)
            if case .corruptImage = error, JPEGSegments(bytes).endsBeforeScan {
                throw .truncated("Premature end of JPEG file (inside the headers)")
            }
            throw error
        }
        return Header(width: Int(width), height: Int(height), colorspace: colorspace)
    }

    /// The smallest of TurboJPEG's scaling factors (1/8, 1/4, 3/8, 1/2 ... 1/1; never enlarging)
    /// whose scaled long side is still at least `minimumLongSide`; 1/1 when even the full size is
    /// smaller.
    ///
    /// Only 1/8, 1/4 and 1/2 have SIMD inverse DCTs, so 3/8 decodes slower than 1/2 (12 MP clean:
    /// 19.6 vs 13.7 ms), but the smaller image is cheaper to resize: 3/8 + resize to 512 and
    /// 1/2 + resize measured the same (20.7 vs 20.7 ms clean, 80-100 ms grainy), and 3/8 needs
    /// 44% less memory.
    static func scalingFactor(width: Int, height: Int, minimumLongSide: Int) -> tjscalingfactor {
        let identity = tjscalingfactor(num: 1, denom: 1)
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return identity }
        let longSide = max(width, height)
        var best = identity
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) {
            guard factor.num > 0, factor.denom > 0, factor.num <= factor.denom else { continue }
            guard scaled(longSide, by: factor) >= minimumLongSide else { continue }
            // factor < best  <=>  factor.num * best.denom < best.num * factor.denom
            if Int(factor.num) * Int(best.denom) < Int(best.num) * Int(factor.denom) { best = factor }
        }
        return best
    }

    /// `TJSCALED`: the dimension scaled by the factor, rounded up (a C macro Swift cannot import).
    static func scaled(_ dimension: Int, by factor: tjscalingfactor) -> Int {
        (dimension * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
    }

    /// TurboJPEG's message for the last failure on `handle`, without the function-name prefix.
    private static func errorText(_ handle: tjhandle) -> String {
        guard let cText = tjGetErrorStr2(handle) else { return "unknown JPEG error" }
        var text = String(cString: cText)
        // "tjDecompress2(): Invalid argument" → "Invalid argument"
        if text.hasPrefix("tj"), let range = text.range(of: "(): ") {
            text = String(text[range.upperBound...])
        }
        return text.isEmpty ? "unknown JPEG error" : text
    }

    /// Whether the last failure on `handle` was a libjpeg warning (the image may still be whole).
    private static func isWarning(_ handle: tjhandle) -> Bool {
        tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
    }

    /// Sorts a decoder failure into truncated data, valid JPEG variants TurboJPEG 2.1 cannot
    /// decode, and corrupt data, by libjpeg's message.
    private static func decodeError(_ handle: tjhandle) -> ProcessingError {
        let text = errorText(handle)
        // libjpeg's JWRN_JPEG_EOF, raised when the data ends before the image does.
        if text.localizedCaseInsensitiveContains("premature end of JPEG file") {
            return .truncated(text)
        }
        if text.hasPrefix("Unsupported JPEG data precision") {
            return .unsupportedFormat("JPEG with \(text.split(separator: " ").last ?? "?")-bit samples")
        }
        if text.hasPrefix("Could not determine subsampling type") {
            return .unsupportedFormat("JPEG with unusual chroma subsampling (such as 4:1:0)")
        }
        return .corruptImage(text)
    }

    /// Converts decoded CMYK in place to opaque RGBA (naive, without a colour profile).
    private static func convertCMYKToRGBA(_ pixels: inout [UInt8], inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            var offset = 0
            while offset + 3 < buffer.count {
                var c = UInt32(buffer[offset])
                var m = UInt32(buffer[offset + 1])
                var y = UInt32(buffer[offset + 2])
                var k = UInt32(buffer[offset + 3])
                if !inverted {
                    c = 255 - c
                    m = 255 - m
                    y = 255 - y
                    k = 255 - k
                }
                // With inverted ink values, R = (1 - C)(1 - K) = c * k / 255.
                buffer[offset] = UInt8((c * k + 127) / 255)
                buffer[offset + 1] = UInt8((m * k + 127) / 255)
                buffer[offset + 2] = UInt8((y * k + 127) / 255)
                buffer[offset + 3] = 255
                offset += 4
            }
        }
    }
}
