/// A photo decoded for processing: oriented sRGB pixels at (about) the working size, the full
/// oriented size, and its EXIF. Produced by `PhotoDecoder.decode(_:options:)`.
public struct DecodedPhoto: Sendable {
    public let format: ImageFormat
    /// Full-resolution size after the EXIF orientation is applied.
    public let width: Int
    public let height: Int
    /// The pixels, oriented, decoded at the smallest scale that still covers the working size (for
    /// JPEGs, `DecodeOptions.jpegLongSide`), so possibly smaller than `width` x `height`, never
    /// scaled up.
    public let image: RGBAImage
    /// nil when the file has no EXIF or its EXIF is malformed (the photo is kept either way).
    public let exif: ExifMetadata?
    /// Problems that did not stop the decode (an unusable colour profile, taken as sRGB).
    public let warnings: [String]

    /// What the catalog keeps about the photo whatever becomes of its sticker.
    public var facts: PhotoFacts {
        PhotoFacts(format: format, width: width, height: height, exif: exif)
    }

    /// The pixels fitted to `longSide` when they are larger (DCT scaling only gets close): what the
    /// cut-out works on.
    public func workingImage(longSide: Int) -> RGBAImage {
        max(image.width, image.height) > longSide ? ImageResizer.fitted(image, longSide: longSide) : image
    }

    /// How many of the photo's own pixels (its full oriented size) one pixel of `working`, a copy
    /// of it at another size, stands for: what a sticker's enlargement is measured against.
    public func sourceScale(of working: RGBAImage) -> Double {
        Double(max(width, height)) / Double(max(working.width, working.height))
    }
}

/// How much to decode: refuse images over `maxPixels` before decoding; decode no more
/// pixels than needed to cover `workingSize` on the long side.
public struct DecodeOptions: Sendable, Equatable {
    public static let defaultMaxPixels = 100_000_000
    public var maxPixels: Int
    public var workingSize: Int

    public init(maxPixels: Int = DecodeOptions.defaultMaxPixels, workingSize: Int = 1024) {
        self.maxPixels = maxPixels
        self.workingSize = workingSize
    }

    /// The shortest long side a JPEG's DCT-scaled decode may have: the working size less 1/32.
    /// DCT scales come in eighths, so the 4000- and 4032-pixel photos of most 12 MP cameras get
    /// 1000 or 1008 pixels at 1/4 and 1500 or 1512 at 3/8. The 3/8 decode costs a fifth more
    /// (libjpeg-turbo has no SIMD inverse DCT at that scale) and then a resize, for a working image
    /// only 1.6-2.4 % larger a side than 1008 or 1000, which neither the network's 320-pixel input
    /// nor a 512-pixel sticker shows (Benchmarks/README.md has the masks compared).
    public var jpegLongSide: Int { workingSize - workingSize / 32 }
}
