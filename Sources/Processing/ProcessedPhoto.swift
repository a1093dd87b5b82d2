/// A sticker image: PNG bytes with alpha, and its pixel size.
public struct StickerImage: Sendable, Equatable {
    public let png: [UInt8]
    public let width, height: Int

    public init(png: [UInt8], width: Int, height: Int) {
        self.png = png
        self.width = width
        self.height = height
    }
}

/// Everything the pipeline makes from one photo's bytes, ready for the catalog to store.
public struct ProcessedPhoto: Sendable {
    public let format: ImageFormat
    /// Full-resolution size after orientation.
    public let width: Int
    public let height: Int
    public let exif: ExifMetadata?
    public let sticker: StickerImage
    public let palette: Palette
    public let pipelineVersion: Int
    public let settings: StickerSettings
    /// What finds its near-duplicates; nil only for entries made outside the pipeline (benchmarks, tests).
    public let signature: SimilaritySignature?
    /// Problems that did not stop the work (an unusable colour profile, taken as sRGB).
    public let warnings: [String]
    /// The moving sticker, for an entry made from a clip; `sticker` is then its first frame.
    public let animation: AnimatedSticker?
    /// The part of the clip `animation` was cut from, when the entry's is not ``ClipWindow/default``
    /// (nil for stills and for the default part): stored with the entry, like its guidance.
    public let clip: ClipWindow?

    public init(
        format: ImageFormat, width: Int, height: Int, exif: ExifMetadata?,
        sticker: StickerImage, palette: Palette, pipelineVersion: Int, settings: StickerSettings,
        signature: SimilaritySignature? = nil, warnings: [String] = [], animation: AnimatedSticker? = nil,
        clip: ClipWindow? = nil
    ) {
        self.animation = animation
        self.clip = animation == nil || clip == .default ? nil : clip
        self.signature = signature
        self.warnings = warnings
        self.format = format
        self.width = width
        self.height = height
        self.exif = exif
        self.sticker = sticker
        self.palette = palette
        self.pipelineVersion = pipelineVersion
        self.settings = settings
    }
}

extension ProcessedPhoto {
    /// The facts of the photo the sticker was made from.
    public var facts: PhotoFacts { PhotoFacts(format: format, width: width, height: height, exif: exif) }
}
