/// An image file format, recognised from the file's first bytes, never from its name. The last five
/// are what entries made from clips and animations record (`detect` leaves them to `AnimationFormat`).
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, gif, webp, tiff, bmp, heif, avif
    case mp4, mov, webm, mkv, apng

    /// The format whose signature starts `bytes`, or nil when no known signature matches.
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("BM".utf8)) && bytes.count >= 26 { return .bmp }
        if starts(Array("ftyp".utf8), at: 4) { return isoFormat(bytes) }
        return nil
    }

    /// HEIF or AVIF from the `ftyp` box's brands: the major brand, or for the generic image brands
    /// (`mif1`, `msf1`, `miaf`) the compatible brands that name the codec.
    private static func isoFormat(_ bytes: [UInt8]) -> ImageFormat? {
        guard bytes.count >= 12 else { return nil }
        let declared = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let boxEnd = min(bytes.count, max(12, declared))
        func brand(at offset: Int) -> String { String(decoding: bytes[offset ..< offset + 4], as: UTF8.self) }
        let avif: Set = ["avif", "avis"]
        let heif: Set = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]
        let generic: Set = ["mif1", "msf1", "miaf", "mif2"]
        let major = brand(at: 8)
        if avif.contains(major) { return .avif }
        if heif.contains(major) { return .heif }
        guard generic.contains(major) else { return nil }
        // Compatible brands follow the major brand and the minor version.
        var compatible: [String] = []
        var offset = 16
        while offset + 4 <= boxEnd {
            compatible.append(brand(at: offset))
            offset += 4
        }
        if compatible.contains(where: avif.contains) { return .avif }
        return .heif
    }

    /// Whether this build can decode the format (the others get an "unsupported format" error).
    public var isDecodable: Bool { [.jpeg, .png, .webp, .heif, .avif].contains(self) }

    /// The name users know the format by.
    public var displayName: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .gif: "GIF"
        case .webp: "WebP"
        case .tiff: "TIFF"
        case .bmp: "BMP"
        case .heif: "HEIF"
        case .avif: "AVIF"
        case .mp4: "MP4"
        case .mov: "QuickTime (MOV)"
        case .webm: "WebM"
        case .mkv: "Matroska"
        case .apng: "APNG"
        }
    }
}
