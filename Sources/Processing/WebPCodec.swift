import CWebP

/// WebP encoding through libwebp's advanced API (`WebPConfig` + `WebPPicture` + a memory writer),
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

        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed("libwebp version mismatch") }
        picture.use_argb = 1
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        defer { WebPPictureFree(&picture) }
        let imported = image.pixels.withUnsafeBufferPointer { pixels in
            WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(image.width * 4))
        }
        guard imported != 0 else { throw .encodingFailed("libwebp could not take the pixels (out of memory)") }

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

    /// The pixel size of a WebP file, or nil when the bytes are not one libwebp reads.
    public static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        var width: Int32 = 0
        var height: Int32 = 0
        let valid = bytes.withUnsafeBufferPointer { buffer in
            WebPGetInfo(buffer.baseAddress, buffer.count, &width, &height)
        }
        return valid != 0 ? (Int(width), Int(height)) : nil
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
