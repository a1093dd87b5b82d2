/// An image file type an export may write.
public enum ImageFileType: String, Sendable, Codable {
    case png, webp

    /// The file name extension.
    public var fileExtension: String { rawValue }
}

/// An encoded image and how it was made.
public struct EncodedImage: Sendable, Equatable {
    public var bytes: [UInt8]
    public var type: ImageFileType
    /// `png`, `png-small`, `png-6bit`, `webp-lossless`, `webp-q83`, ...: what the fit report shows.
    public var encoding: String

    public init(bytes: [UInt8], type: ImageFileType, encoding: String) {
        self.bytes = bytes
        self.type = type
        self.encoding = encoding
    }
}

/// Encodes an image to fit a byte limit, trying the least lossy encodings first:
/// 1. PNG (hidden colour under transparent pixels cleared), then PNG at maximum compression;
/// 2. lossless WebP, when WebP is allowed;
/// 3. lossy WebP, the highest quality that fits (binary search), when WebP is allowed;
///    otherwise PNG with fewer colours (7, 6, 5, 4, 3 bits a channel).
/// Deterministic: the same image and limit give the same bytes.
public enum ByteBudgetEncoder {
    /// The outcome: a file that fits, or the smallest size reached.
    public enum Outcome: Sendable, Equatable {
        case fits(EncodedImage)
        /// Nothing fitted; `smallest` is the best any encoding did.
        case tooLarge(smallest: Int, encoding: String)
    }

    /// The first encoding of `image` among `types` (preferred first) no larger than `maxBytes`
    /// (nil: no limit, so the first encoding).
    public static func encode(_ image: RGBAImage, types: [ImageFileType], maxBytes: Int?) throws(ProcessingError) -> Outcome {
        let limit = maxBytes ?? .max
        var smallest: (bytes: Int, encoding: String)?
        func consider(_ candidate: EncodedImage) -> Bool {
            if candidate.bytes.count < smallest?.bytes ?? .max { smallest = (candidate.bytes.count, candidate.encoding) }
            return candidate.bytes.count <= limit
        }
        let allowsPNG = types.contains(.png), allowsWebP = types.contains(.webp)
        let cleaned = ColorReducer.clearingHiddenColor(image)
        if allowsPNG {
            let fast = EncodedImage(bytes: try PNGCodec.encode(cleaned, compression: .fast), type: .png, encoding: "png")
            if consider(fast) { return .fits(fast) }
            let small = EncodedImage(bytes: try PNGCodec.encode(cleaned, compression: .small), type: .png, encoding: "png-small")
            if consider(small) { return .fits(small) }
        }
        if allowsWebP {
            let lossless = EncodedImage(bytes: try WebPCodec.encode(image, mode: .lossless), type: .webp, encoding: "webp-lossless")
            if consider(lossless) { return .fits(lossless) }
            // Highest quality that fits: size grows with quality (almost monotonically). The top
            // quality is tried first (most stickers fit there, one encoding), then a binary search
            // over 0...94 (about 7 encodings).
            let top = EncodedImage(bytes: try WebPCodec.encode(image, mode: .lossy(quality: 95)), type: .webp, encoding: "webp-q95")
            if consider(top) { return .fits(top) }
            var low = 0, high = 94
            var best: EncodedImage?
            while low <= high {
                let quality = (low + high) / 2
                let candidate = EncodedImage(bytes: try WebPCodec.encode(image, mode: .lossy(quality: quality)), type: .webp, encoding: "webp-q\(quality)")
                if consider(candidate) {
                    best = candidate
                    low = quality + 1
                } else {
                    high = quality - 1
                }
            }
            if let best { return .fits(best) }
        } else if allowsPNG {
            for bits in [7, 6, 5, 4, 3] {
                let reduced = ColorReducer.reduced(image, bits: bits)
                let candidate = EncodedImage(bytes: try PNGCodec.encode(reduced, compression: .small), type: .png, encoding: "png-\(bits)bit")
                if consider(candidate) { return .fits(candidate) }
            }
        }
        return .tooLarge(smallest: smallest?.bytes ?? 0, encoding: smallest?.encoding ?? "none")
    }
}
