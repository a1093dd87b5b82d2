/// The chunks of a WebP file's RIFF container, walked in Swift with every size checked: where the
/// `EXIF` and `ICCP` metadata are (libwebp's decoder skips them), whether the file is complete,
/// and a way to put metadata into a simple file (for samples and tests).
public struct WebPChunks {
    /// One chunk: its four-character type and where its payload lies in the bytes.
    struct Chunk {
        var type: String
        var payload: Range<Int>
    }

    let chunks: [Chunk]
    /// True when the RIFF header says the file is longer than the data (a cut download).
    let isTruncated: Bool
    /// The flags byte of a leading `VP8X` chunk (nil for a simple file).
    let vp8xFlags: UInt8?

    init(_ bytes: [UInt8]) {
        var found: [Chunk] = []
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else {
            chunks = []
            isTruncated = false
            vp8xFlags = nil
            return
        }
        let declaredEnd = 8 + Int(Self.readUInt32LE(bytes, at: 4))
        let end = min(declaredEnd, bytes.count)
        var position = 12
        var cut = declaredEnd > bytes.count
        while position + 8 <= end {
            let type = String(decoding: bytes[position ..< position + 4], as: UTF8.self)
            let size = Int(Self.readUInt32LE(bytes, at: position + 4))
            let payloadEnd = position + 8 + size
            guard payloadEnd <= end else {
                cut = cut || payloadEnd > bytes.count
                break
            }
            found.append(Chunk(type: type, payload: position + 8 ..< payloadEnd))
            position = payloadEnd + (size & 1)  // Chunks are padded to an even size.
        }
        chunks = found
        vp8xFlags = found.first.flatMap { $0.type == "VP8X" && !$0.payload.isEmpty ? bytes[$0.payload.lowerBound] : nil }
        isTruncated = cut
    }

    /// True when the file opens with a `VP8X` chunk whose flags include animation (`ANIM`/`ANMF` follow).
    var isAnimated: Bool { (vp8xFlags ?? 0) & 0x02 != 0 }

    func payload(_ type: String, in bytes: [UInt8]) -> [UInt8]? {
        chunks.first { $0.type == type }.map { Array(bytes[$0.payload]) }
    }

    /// The EXIF block of a WebP file (the `EXIF` chunk, with or without an `Exif\0\0` prefix).
    public static func exif(_ bytes: [UInt8]) -> [UInt8]? { WebPChunks(bytes).payload("EXIF", in: bytes) }

    /// The ICC profile of a WebP file (the `ICCP` chunk).
    public static func iccProfile(_ bytes: [UInt8]) -> [UInt8]? { WebPChunks(bytes).payload("ICCP", in: bytes) }

    /// `webp` (as libwebp's encoder writes it) in an extended (`VP8X`) container with an `ICCP`
    /// chunk and/or an `EXIF` chunk, in the order the container specification requires.
    public static func adding(iccProfile: [UInt8]?, exif: [UInt8]?, to webp: [UInt8]) -> [UInt8]? {
        let parsed = WebPChunks(webp)
        guard !parsed.chunks.isEmpty, !parsed.isTruncated, let (width, height) = WebPCodec.size(of: webp) else { return nil }
        let image = parsed.chunks.filter { ["ALPH", "VP8 ", "VP8L"].contains($0.type) }
        guard !image.isEmpty else { return nil }
        let hasAlpha = image.contains { $0.type == "ALPH" }
            || (image.first?.type == "VP8L" && webp.count > image[0].payload.lowerBound + 4
                && webp[image[0].payload.lowerBound + 4] & 0x10 != 0)
        var flags: UInt8 = 0
        if iccProfile != nil { flags |= 0x20 }
        if hasAlpha { flags |= 0x10 }
        if exif != nil { flags |= 0x08 }
        var vp8x: [UInt8] = [flags, 0, 0, 0]
        vp8x += littleEndian24(width - 1) + littleEndian24(height - 1)
        var body = Array("WEBP".utf8) + chunk("VP8X", vp8x)
        if let iccProfile { body += chunk("ICCP", iccProfile) }
        for part in image { body += chunk(part.type, Array(webp[part.payload])) }
        if let exif { body += chunk("EXIF", exif) }
        return Array("RIFF".utf8) + littleEndian32(body.count) + body
    }

    private static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        Array(type.utf8) + littleEndian32(payload.count) + payload + (payload.count.isMultiple(of: 2) ? [] : [0])
    }

    private static func littleEndian24(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }

    private static func littleEndian32(_ value: Int) -> [UInt8] {
        littleEndian24(value) + [UInt8(value >> 24 & 0xFF)]
    }

    static func readUInt32LE(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
