import CWebP

/// WebP decoding and encoding through libwebp's advanced APIs (`WebPConfig` + `WebPPicture` + a memory writer),
/// which reports errors as return codes (no `longjmp`), and the header/decoding calls tests and
/// exports need to check a file. Every pointer libwebp hands out is freed here, on every path.
///
/// Encodings are deterministic: the same pixels and settings give the same bytes (libwebp runs
/// single-threaded here, `thread_level` 0).
public enum WebPCodec {
    /// The largest side libwebp encodes (`WEBP_MAX_DIMENSION`).
    public static let maxDimension = 16_383

    /// How to encode.
    public enum Mode: Sendable, Equatable, Hashable {
        /// Lossless (`config.lossless = 1`) at libwebp's effort `quality` (0-100: time, not fidelity).
        case lossless
        /// Lossy VP8 with alpha at `quality` 0-100; alpha stays lossless (`alpha_quality` 100).
        case lossy(quality: Int)
    }

    /// Encodes straight RGBA. `method` is libwebp's speed/size trade-off, 0 (fast) to 6 (small).
    public static func encode(_ image: RGBAImage, mode: Mode, method: Int = 4) throws(ProcessingError) -> [UInt8] {
        guard image.width <= maxDimension, image.height <= maxDimension else {
            throw .encodingFailed("\(image.width)x\(image.height) is larger than WebP allows (\(maxDimension) a side)")
        }
        var config = try configuration(mode: mode, method: method)

        var picture = try picture(of: image)
        defer { WebPPictureFree(&picture) }

        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let memory = writer.mem, writer.size > 0 else {
            throw .encodingFailed("libwebp could not encode the image (error \(picture.error_code.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: memory, count: writer.size))
    }

    /// A picture holding `image`'s pixels, for an encoder; the caller frees it with `WebPPictureFree`.
    static func picture(of image: RGBAImage) throws(ProcessingError) -> WebPPicture {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed("libwebp version mismatch") }
        picture.use_argb = 1
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        let imported = image.pixels.withUnsafeBufferPointer { pixels in
            WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(image.width * 4))
        }
        guard imported != 0 else {
            WebPPictureFree(&picture)
            throw .encodingFailed("libwebp could not take the pixels (out of memory)")
        }
        return picture
    }

    /// libwebp's settings for `mode` and `method`, checked.
    static func configuration(mode: Mode, method: Int) throws(ProcessingError) -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw .encodingFailed("libwebp version mismatch") }
        switch mode {
        case .lossless:
            config.lossless = 1
            config.quality = 75
        case .lossy(let quality):
            config.lossless = 0
            config.quality = Float(min(100, max(0, quality)))
            config.alpha_quality = 100
        }
        config.method = Int32(min(6, max(0, method)))
        config.thread_level = 0
        // Keep the colour under fully transparent pixels out of the file: smaller, and what was
        // invisible never becomes visible after a lossy round trip.
        config.exact = 0
        guard WebPValidateConfig(&config) != 0 else { throw .encodingFailed("invalid WebP settings") }
        return config
    }

    /// The pixel size of a WebP file, or nil when the bytes are not one libwebp reads.
    public static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        var width: Int32 = 0
        var height: Int32 = 0
        let valid = bytes.withUnsafeBufferPointer { buffer in
            WebPGetInfo(buffer.baseAddress, buffer.count, &width, &height)
        }
        return valid != 0 ? (Int(width), Int(height)) : nil
    }

    /// Decodes a still WebP to straight RGBA (its alpha kept), refusing images over `maxPixels`
    /// from the header before decoding, and scaling down while decoding (libwebp rescales row by
    /// row) to about `workingSize` on the long side. Returns the full size too.
    public static func decodeScaled(
        _ bytes: [UInt8], maxPixels: Int, workingSize: Int
    ) throws(ProcessingError) -> (image: RGBAImage, fullWidth: Int, fullHeight: Int) {
        guard !bytes.isEmpty else { throw .truncated("empty file") }
        let container = WebPChunks(bytes)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .corruptImage("libwebp version mismatch") }
        let featureStatus = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &config.input) }
        guard featureStatus == VP8_STATUS_OK else {
            throw error(featureStatus, truncated: container.isTruncated, while: "reading the WebP header")
        }
        let width = Int(config.input.width)
        let height = Int(config.input.height)
        guard width > 0, height > 0 else { throw .corruptImage("invalid WebP size \(width)x\(height)") }
        guard width * height <= maxPixels else { throw .tooLarge(width: width, height: height, limit: maxPixels) }
        guard config.input.has_animation == 0 else { throw .unsupportedFormat("animated WebP (still images only)") }
        if container.isTruncated { throw .truncated("the RIFF container is longer than the data") }

        let (outputWidth, outputHeight) = ImageResizer.reducedSize(width: width, height: height, workingSize: workingSize) ?? (width, height)
        if (outputWidth, outputHeight) != (width, height) {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(outputWidth)
            config.options.scaled_height = Int32(outputHeight)
        }
        let count = outputWidth * outputHeight * 4
        var status = VP8_STATUS_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(outputWidth * 4)
            config.output.u.RGBA.size = count
            status = bytes.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
            WebPFreeDecBuffer(&config.output)
            // On failure the buffer is discarded unread; UInt8 needs no deinitialization.
            initialized = count
        }
        guard status == VP8_STATUS_OK else { throw error(status, truncated: container.isTruncated, while: "decoding the WebP data") }
        return (RGBAImage(width: outputWidth, height: outputHeight, pixels: pixels), width, height)
    }

    /// A libwebp status as a `ProcessingError`.
    private static func error(_ status: VP8StatusCode, truncated: Bool, while doing: String) -> ProcessingError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: .truncated("the WebP data ends early (\(doing))")
        case VP8_STATUS_UNSUPPORTED_FEATURE: .unsupportedFormat("WebP feature libwebp does not decode")
        case _ where truncated: .truncated("the RIFF container is longer than the data (\(doing))")
        case VP8_STATUS_OUT_OF_MEMORY: .corruptImage("libwebp ran out of memory \(doing)")
        default: .corruptImage("libwebp failed \(doing) (status \(status.rawValue))")
        }
    }

    /// Decodes a WebP file to straight RGBA.
    public static func decode(_ bytes: [UInt8]) throws(ProcessingError) -> RGBAImage {
        guard let (width, height) = size(of: bytes), width > 0, height > 0 else {
            throw .corruptImage("not a WebP file libwebp can read")
        }
        let count = width * height * 4
        var succeeded = false
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let result = bytes.withUnsafeBufferPointer { source in
                WebPDecodeRGBAInto(source.baseAddress, source.count, buffer.baseAddress, count, Int32(width * 4))
            }
            succeeded = result != nil
            initialized = count
        }
        guard succeeded else { throw .corruptImage("libwebp could not decode the WebP data") }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
