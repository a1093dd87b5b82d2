/// A moving-image format, recognised from the file's first bytes, never from its name: what an
/// animated sticker can be made from. Stills keep `ImageFormat`; `MediaFormat` tells the two apart.
public enum AnimationFormat: String, Sendable, Codable, CaseIterable {
    /// ISO base media (`ftyp` with a video brand): MP4, M4V, 3GP.
    case mp4
    /// QuickTime (`ftyp` brand `qt  `): what phones record, the moving half of a Live Photo.
    case quickTime
    /// WebM, Matroska's web profile (DocType `webm`).
    case webm
    /// Any other Matroska file.
    case matroska
    /// A GIF with more than one frame (a GIF of one frame is a still).
    case gif
    /// A PNG with an `acTL` chunk before its image data.
    case apng
    /// A WebP whose `VP8X` header has the animation flag.
    case webp

    /// The format whose signature and structure `bytes` have, or nil for stills and unknown data.
    public static func detect(_ bytes: [UInt8]) -> AnimationFormat? {
        if bytes.count >= 4, bytes[0..<4].elementsEqual([0x1A, 0x45, 0xDF, 0xA3]) {
            return MatroskaHeader.isWebM(bytes) ? .webm : .matroska
        }
        switch ImageFormat.detect(bytes) {
        case .gif: return GIFBlocks(bytes).frameCount > 1 ? .gif : nil
        case .png: return PNGAnimationChunks(bytes).isAnimated ? .apng : nil
        case .webp: return WebPChunks(bytes).isAnimated ? .webp : nil
        case .heif, .avif: return nil  // `ftyp` too, but image brands: stills.
        case nil where bytes.count >= 12 && bytes[4..<8].elementsEqual("ftyp".utf8): return isoFormat(bytes)
        default: return nil
        }
    }

    /// MP4 or QuickTime from the `ftyp` major brand, or a compatible brand when the major one is
    /// not a known video brand (HEIF/AVIF brands were ruled out before).
    private static func isoFormat(_ bytes: [UInt8]) -> AnimationFormat? {
        func brand(at offset: Int) -> String { String(decoding: bytes[offset ..< offset + 4], as: UTF8.self) }
        let major = brand(at: 8)
        if major == "qt  " { return .quickTime }
        if videoBrands.contains(major) { return .mp4 }
        let declared = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let boxEnd = min(bytes.count, max(16, declared))
        var offset = 16
        while offset + 4 <= boxEnd {
            let compatible = brand(at: offset)
            if compatible == "qt  " { return .quickTime }
            if videoBrands.contains(compatible) { return .mp4 }
            offset += 4
        }
        return nil
    }

    /// `ftyp` brands of files that carry video (ISO, MP4 versions, codec and 3GPP brands).
    private static let videoBrands: Set<String> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso8", "iso9", "mp41", "mp42", "mp71", "avc1", "hvc1", "M4V ", "M4VP",
        "3gp4", "3gp5", "3gp6", "3g2a", "dash", "MSNV", "XAVC", "f4v ",
    ]

    /// What an entry made from this source records as its format.
    public var recordedFormat: ImageFormat {
        switch self {
        case .mp4: .mp4
        case .quickTime: .mov
        case .webm: .webm
        case .matroska: .mkv
        case .gif: .gif
        case .apng: .apng
        case .webp: .webp
        }
    }

    /// The name users know the format by.
    public var displayName: String {
        switch self {
        case .mp4: "MP4"
        case .quickTime: "QuickTime (MOV)"
        case .webm: "WebM"
        case .matroska: "Matroska"
        case .gif: "animated GIF"
        case .apng: "APNG"
        case .webp: "animated WebP"
        }
    }
}

/// What a file's bytes are: a still image, an animation, or (nil from `detect`) neither.
public enum MediaFormat: Sendable, Equatable {
    case still(ImageFormat)
    case animation(AnimationFormat)

    /// Animations first (an APNG is also a PNG, an animated WebP also a WebP), then stills exactly
    /// as `ImageFormat.detect` sees them.
    public static func detect(_ bytes: [UInt8]) -> MediaFormat? {
        if let animation = AnimationFormat.detect(bytes) { return .animation(animation) }
        return ImageFormat.detect(bytes).map(MediaFormat.still)
    }
}
