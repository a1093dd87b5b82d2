import CPNG
import CPNGWriter
import CInflate

/// PNG decoding through libpng's simplified API (`png_image_*`), which catches libpng's errors
/// internally (no `longjmp` crosses a Swift frame) and reports them in `png_image.message`;
/// encoding through the `CPNGWriter` C shim, which does the same for libpng's full write API.
/// Pixels are 8-bit sRGB with straight alpha.
public enum PNGCodec {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// `PNG_FORMAT_RGBA`, a macro built from other macros that Swift does not import.
    private static let rgbaFormat = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    /// The pixel size in the PNG's IHDR chunk, as validated by libpng (signature, CRC, limits).
    public static func readHeader(_ bytes: [UInt8]) throws(ProcessingError) -> (width: Int, height: Int) {
        try withReader(bytes) { image throws(ProcessingError) in
            (Int(image.pointee.width), Int(image.pointee.height))
        }
    }

    /// Decodes to straight RGBA, refusing images over `maxPixels` before any pixel buffer is allocated.
    public static func decode(_ bytes: [UInt8], maxPixels: Int) throws(ProcessingError) -> RGBAImage {
        try refuseDeclaredSize(of: bytes, over: maxPixels)
        return try withReader(bytes) { image throws(ProcessingError) in
            let width = Int(image.pointee.width)
            let height = Int(image.pointee.height)
            let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
            guard !overflow, pixelCount <= maxPixels else {
                throw .tooLarge(width: width, height: height, limit: maxPixels)
            }
            guard width > 0, height > 0, width <= Int(Int32.max) / 4 else {
                throw .corruptImage("invalid size \(width)x\(height)")
            }
            let count = pixelCount * 4
            image.pointee.format = rgbaFormat
            var succeeded: Int32 = 0
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
                succeeded = png_image_finish_read(image, nil, buffer.baseAddress, Int32(width * 4), nil)
                // On failure the buffer is discarded unread; UInt8 needs no deinitialization.
                initializedCount = count
            }
            guard succeeded != 0 else { throw readError(image) }
            try requireEnd(bytes)
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }

    /// Encodes straight RGBA as an 8-bit RGBA PNG with the `.fast` settings, the sticker default.
    public static func encode(_ image: RGBAImage) throws(ProcessingError) -> [UInt8] {
        try encode(image, compression: .fast)
    }

    /// Encodes straight RGBA as an 8-bit RGBA, non-interlaced PNG tagged sRGB, through libpng's
    /// full write API in the `CPNGWriter` shim (which keeps libpng's `longjmp` inside C).
    public static func encode(_ image: RGBAImage, compression: PNGCompression) throws(ProcessingError) -> [UInt8] {
        try image.pixels.withUnsafeBufferPointer { pixels throws(ProcessingError) in
            try encode(rgba: pixels, width: image.width, height: image.height, compression: compression)
        }
    }

    /// Encodes `rgba` (`width * height * 4` bytes, which the shim checks too). Internal so tests
    /// can hand it sizes no `RGBAImage` could hold.
    static func encode(
        rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int, compression: PNGCompression
    ) throws(ProcessingError) -> [UInt8] {
        guard let pngWidth = UInt32(exactly: width), let pngHeight = UInt32(exactly: height) else {
            throw .encodingFailed("\(width)x\(height) is too large for PNG")
        }
        var best: [UInt8]?
        for settings in compression.attempts {
            let png = try encode(pixels: rgba, channels: 4, width: pngWidth, height: pngHeight, settings: settings)
            if png.count < best?.count ?? .max { best = png }
        }
        guard let best else { throw .encodingFailed("no PNG settings to try") }
        return best
    }

    /// One run of the C encoder; the buffer it returns is copied and freed here.
    private static func encode(
        pixels: UnsafeBufferPointer<UInt8>, channels: Int32, width: UInt32, height: UInt32, settings: PNGCompression.Settings
    ) throws(ProcessingError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { text in
            png_writer_encode(
                pixels.baseAddress, pixels.count, width, height, channels,
                settings.level, settings.filters, settings.strategy,
                &output, &outputSize, text.baseAddress, text.count
            )
        }
        defer { png_writer_free(output) }
        guard status == 0, let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .encodingFailed(text.isEmpty ? "libpng could not write the PNG" : text)
        }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }

    /// Encodes one 8-bit channel (`width * height` bytes, e.g. a mask) as a grey PNG with the
    /// `.fast` settings: a quarter of the bytes of the same picture as RGBA.
    public static func encodeGrey(_ values: [UInt8], width: Int, height: Int) throws(ProcessingError) -> [UInt8] {
        guard let pngWidth = UInt32(exactly: width), let pngHeight = UInt32(exactly: height) else {
            throw .encodingFailed("\(width)x\(height) is too large for PNG")
        }
        guard let settings = PNGCompression.fast.attempts.first else { throw .encodingFailed("no PNG settings to try") }
        return try values.withUnsafeBufferPointer { grey throws(ProcessingError) in
            try encode(pixels: grey, channels: 1, width: pngWidth, height: pngHeight, settings: settings)
        }
    }

    /// Encodes one byte a pixel as a grey PNG at zlib's best, no row filter: for palette indices,
    /// whose values are labels, not levels, so differences between neighbours mean nothing and
    /// filtering only hides their repeats from zlib.
    static func encodeIndices(_ values: [UInt8], width: Int, height: Int) throws(ProcessingError) -> [UInt8] {
        guard let pngWidth = UInt32(exactly: width), let pngHeight = UInt32(exactly: height) else {
            throw .encodingFailed("\(width)x\(height) is too large for PNG")
        }
        let settings = PNGCompression.Settings(level: 9, filters: Int32(PNG_WRITER_FILTER_NONE), strategy: Int32(PNG_WRITER_STRATEGY_DEFAULT))
        return try values.withUnsafeBufferPointer { indices throws(ProcessingError) in
            try encode(pixels: indices, channels: 1, width: pngWidth, height: pngHeight, settings: settings)
        }
    }

    /// Encodes a grey image made row by row (`.fast` settings, as `encodeGrey`): `fill(y, row)`
    /// writes row `y`'s `width` bytes, for y = 0 ..< height in order, so the whole image never
    /// has to be in memory.
    public static func encodeGrey(
        width: Int, height: Int, fillingRows fill: (Int, UnsafeMutablePointer<UInt8>) -> Void
    ) throws(ProcessingError) -> [UInt8] {
        guard let pngWidth = UInt32(exactly: width), let pngHeight = UInt32(exactly: height) else {
            throw .encodingFailed("\(width)x\(height) is too large for PNG")
        }
        guard let settings = PNGCompression.fast.attempts.first else { throw .encodingFailed("no PNG settings to try") }
        typealias Fill = (Int, UnsafeMutablePointer<UInt8>) -> Void
        // The C encoder calls back with a context pointer: the closure, for the call's duration only.
        let source: png_writer_row_source = { context, y, row in
            guard let context, let row else { return 1 }
            context.assumingMemoryBound(to: Fill.self).pointee(Int(y), row)
            return 0
        }
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = withoutActuallyEscaping(fill) { fill in
            var closure: Fill = fill
            return withUnsafeMutablePointer(to: &closure) { context in
                message.withUnsafeMutableBufferPointer { text in
                    png_writer_encode_rows(
                        source, context, pngWidth, pngHeight, 1,
                        settings.level, settings.filters, settings.strategy,
                        &output, &outputSize, text.baseAddress, text.count)
                }
            }
        }
        defer { png_writer_free(output) }
        guard status == 0, let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .encodingFailed(text.isEmpty ? "libpng could not write the PNG" : text)
        }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }

    /// The payload of the PNG's `eXIf` chunk (a TIFF-structured EXIF block, without the
    /// `Exif\0\0` prefix of JPEG), or nil. Chunks are walked with every length checked; the walk
    /// stops at `IEND` or at the first chunk that does not fit in the data.
    public static func exifChunk(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.starts(with: signature) else { return nil }
        var position = signature.count
        while position + 12 <= bytes.count {
            let length = readUInt32(bytes, at: position)
            guard length <= 0x7FFF_FFFF else { return nil }  // The PNG limit: 2^31 - 1.
            let type = bytes[position + 4 ..< position + 8]
            let dataStart = position + 8
            let dataEnd = dataStart + Int(length)
            guard dataEnd + 4 <= bytes.count else { return nil }
            if type.elementsEqual("eXIf".utf8) { return Array(bytes[dataStart..<dataEnd]) }
            if type.elementsEqual("IEND".utf8) { return nil }
            position = dataEnd + 4
        }
        return nil
    }

    /// The ICC profile of the PNG's `iCCP` chunk (a name, a compression byte, then the profile
    /// deflated), inflated, or nil when there is none or it does not inflate (at most 16 MB).
    public static func iccProfile(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.starts(with: signature) else { return nil }
        var position = signature.count
        while position + 12 <= bytes.count {
            let length = Int(readUInt32(bytes, at: position))
            let type = bytes[position + 4 ..< position + 8]
            let dataStart = position + 8
            guard length <= 0x7FFF_FFFF, dataStart + length + 4 <= bytes.count else { return nil }
            if type.elementsEqual("iCCP".utf8) {
                let data = bytes[dataStart ..< dataStart + length]
                // Name (1-79 bytes), NUL, compression method 0, then the zlib stream.
                guard let nul = data.prefix(80).firstIndex(of: 0), nul + 1 < data.endIndex, data[nul + 1] == 0 else { return nil }
                return inflate(Array(data[(nul + 2)...]), limit: 16 << 20)
            }
            if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
            position = dataStart + length + 4
        }
        return nil
    }

    /// Returns the PNG with an `iCCP` chunk holding `profile` (deflated) right after IHDR, for
    /// samples and tests of colour management.
    public static func pngByInserting(iccProfile profile: [UInt8], into png: [UInt8]) throws(ProcessingError) -> [UInt8] {
        guard png.starts(with: signature), png.count >= signature.count + 25 else { throw .encodingFailed("not a PNG with an IHDR chunk") }
        var compressedSize = compressBound(UInt(profile.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedSize))
        guard compress2(&compressed, &compressedSize, profile, UInt(profile.count), 9) == Z_OK else {
            throw .encodingFailed("zlib could not compress the profile")
        }
        let data = Array("ICC profile".utf8) + [0, 0] + compressed.prefix(Int(compressedSize))
        let afterHeader = signature.count + 25
        return Array(png[..<afterHeader]) + chunk(type: "iCCP", data: data) + png[afterHeader...]
    }

    /// A zlib stream inflated, or nil when it is damaged or inflates past `limit` bytes.
    static func inflate(_ compressed: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = compressed
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return CInflate.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output += chunk[0..<produced]
                guard output.count <= limit else { return nil }
                if status == Z_STREAM_END { return output }
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }

    /// Returns the PNG with an `eXIf` chunk holding `exif` (a TIFF block; a leading `Exif\0\0`
    /// is dropped) placed right after IHDR, replacing any `eXIf` chunk already there.
    public static func pngByInserting(exifChunk exif: [UInt8], into png: [UInt8]) throws(ProcessingError) -> [UInt8] {
        let payload = exif.starts(with: ExifReader.exifPrefix) ? Array(exif.dropFirst(ExifReader.exifPrefix.count)) : exif
        guard png.starts(with: signature), png.count >= signature.count + 25,
              png[12..<16].elementsEqual("IHDR".utf8), readUInt32(png, at: 8) == 13 else {
            throw .encodingFailed("not a PNG with an IHDR chunk")
        }
        guard payload.count < 0x7FFF_FFFF else { throw .encodingFailed("EXIF block too large") }
        let afterHeader = signature.count + 25
        var output = Array(png[..<afterHeader])
        output += chunk(type: "eXIf", data: payload)
        // Copy the remaining chunks, leaving out an eXIf that was already there.
        var position = afterHeader
        while position + 12 <= png.count {
            let length = Int(readUInt32(png, at: position))
            let end = position + 12 + length
            guard length <= 0x7FFF_FFFF, end <= png.count else { break }
            if !png[position + 4 ..< position + 8].elementsEqual("eXIf".utf8) {
                output += png[position..<end]
            }
            position = end
        }
        output += png[position...]
        return output
    }

    // MARK: - Internals

    /// A zeroed control block with the version set, as the simplified API requires.
    private static func pngImage() -> png_image {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        return image
    }

    /// Begins a read (signature and all chunks up to the image data) and runs `body` with the
    /// control block; the block is freed on every path.
    private static func withReader<T>(
        _ bytes: [UInt8], _ body: (UnsafeMutablePointer<png_image>) throws(ProcessingError) -> T
    ) throws(ProcessingError) -> T {
        guard !bytes.isEmpty else { throw .truncated("empty file") }
        try checkChunkLengths(bytes)
        var control = pngImage()
        defer { png_image_free(&control) }
        // libpng keeps a pointer to `bytes` until the read finishes, so the whole read runs in here.
        return try bytes.withUnsafeBufferPointer { source throws(ProcessingError) -> T in
            guard png_image_begin_read_from_memory(&control, source.baseAddress, source.count) != 0 else {
                throw readError(&control)
            }
            return try withUnsafeMutablePointer(to: &control) { pointer throws(ProcessingError) -> T in
                try body(pointer)
            }
        }
    }

    /// Refuses an ancillary chunk whose declared length runs past the end of the data before
    /// libpng sees it: libpng (as Debian builds it) allocates what such a chunk declares, so a
    /// 57-byte file whose tEXt chunk claims 1 GB costs a 1 GB allocation and seconds of work.
    /// Image data (IDAT) is streamed, not allocated, and small overruns cost nothing, so those are
    /// left for libpng to judge (it accepts a file whose pixels are all there).
    private static func checkChunkLengths(_ bytes: [UInt8]) throws(ProcessingError) {
        guard bytes.starts(with: signature) else { return }  // libpng reports the bad signature
        var position = signature.count
        while position + 8 <= bytes.count {
            let length = Int(readUInt32(bytes, at: position))
            let typeBytes = bytes[position + 4 ..< position + 8]
            // A chunk type is four ASCII letters; past garbage, leave the verdict to libpng.
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return }
            let type = String(decoding: typeBytes, as: UTF8.self)
            if type == "IEND" { return }
            let remaining = bytes.count - position - 8
            if length + 4 > remaining {
                guard type != "IDAT", length > 65_536 else { return }
                throw .truncated("the \(type) chunk needs \(length + 4) bytes, the data ends after \(remaining)")
            }
            position += 12 + length
        }
    }

    /// Refuses a PNG that stops before a complete IEND chunk. libpng accepts one once all pixels
    /// are read, but the file is still incomplete (a cut download, a failed copy), and an archive
    /// should hear about it rather than keep it silently.
    private static func requireEnd(_ bytes: [UInt8]) throws(ProcessingError) {
        var position = signature.count
        while position + 12 <= bytes.count {
            let length = Int(readUInt32(bytes, at: position))
            if bytes[position + 4 ..< position + 8].elementsEqual("IEND".utf8) { return }
            let (next, overflow) = position.addingReportingOverflow(12 + length)
            guard !overflow else { break }
            position = next
        }
        throw .truncated("the file ends before its IEND chunk: the PNG is incomplete")
    }

    /// Checks the size IHDR declares before any decoder sees the data: an IHDR claiming billions of
    /// pixels is "too large", whatever else is wrong with the file.
    static func refuseDeclaredSize(of bytes: [UInt8], over maxPixels: Int) throws(ProcessingError) {
        guard let declared = declaredSize(bytes) else { return }
        let (pixelCount, overflow) = declared.width.multipliedReportingOverflow(by: declared.height)
        if overflow || pixelCount > maxPixels {
            throw .tooLarge(width: declared.width, height: declared.height, limit: maxPixels)
        }
    }

    /// The width and height IHDR declares, when the data starts like a PNG.
    static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.starts(with: signature), bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        return (Int(readUInt32(bytes, at: 16)), Int(readUInt32(bytes, at: 20)))
    }

    private static func message(of image: png_image) -> String? {
        var copy = image.message
        let text = withUnsafeBytes(of: &copy) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        return text.isEmpty ? nil : text
    }

    /// Sorts a libpng failure into truncated data or corrupt data, by libpng's message.
    private static func readError(_ image: UnsafeMutablePointer<png_image>) -> ProcessingError {
        let text = message(of: image.pointee) ?? "libpng could not read the PNG"
        let truncationHints = ["read beyond end of data", "not enough image data", "unexpected end", "read error", "truncated"]
        if truncationHints.contains(where: { text.localizedCaseInsensitiveContains($0) }) {
            return .truncated(text)
        }
        return .corruptImage(text)
    }

    /// The big-endian 32-bit value at `offset` (PNG's byte order), from an array or a raw buffer.
    static func readUInt32<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int) -> UInt32 where Bytes.Index == Int {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A complete chunk: length, type, data and CRC.
    static func chunk(type: String, data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }

    /// The CRC-32 of PNG chunks (ISO 3309), over a chunk's type and data.
    static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        Array(bytes).withUnsafeBytes(ZlibDecompressor.crc32)
    }
}

/// How hard `PNGCodec.encode` compresses. Every setting is lossless; they trade time for bytes.
public enum PNGCompression: Sendable, Equatable {
    /// zlib level 1, the Up filter on every row, the Z_RLE strategy: 7-15 ms for a 512-pixel
    /// photo sticker, 1.4-2 times faster and 15-25% smaller than libpng's simplified API with
    /// `PNG_IMAGE_FLAG_FAST` on photos. The default. Z_RLE finds no repeat farther back than one
    /// byte, so images whose pixels repeat exactly (near-flat synthetic scenes, such as the
    /// generated benchmark photos) come out up to twice that API's size.
    case fast
    /// zlib level 9 with libpng's adaptive choice among all five filters for each row, and
    /// libpng's default strategy for filtered rows (Z_FILTERED, which measured 2-6% smaller than
    /// zlib's Z_DEFAULT_STRATEGY on photos); the `.fast` encoding is made too and the smaller one
    /// kept, so `.small` is never larger than `.fast` (level 9 alone can be, on grainy images).
    /// 15-30 times the time of `.fast` for 5-15% fewer bytes on photos and over half fewer on
    /// images whose pixels repeat exactly: for exports that must fit a byte limit.
    case small

    /// One set of libpng/zlib parameters for the C encoder.
    struct Settings: Equatable {
        var level: Int32
        var filters: Int32
        var strategy: Int32
    }

    /// The encodings to make, of which the smallest is kept.
    var attempts: [Settings] {
        let fast = Settings(level: 1, filters: Int32(PNG_WRITER_FILTER_UP), strategy: Int32(PNG_WRITER_STRATEGY_RLE))
        switch self {
        case .fast:
            return [fast]
        case .small:
            let thorough = Settings(level: 9, filters: Int32(PNG_WRITER_FILTER_ALL), strategy: Int32(PNG_WRITER_STRATEGY_FILTERED))
            return [fast, thorough]
        }
    }
}
