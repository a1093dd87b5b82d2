/// Turns a photo file's bytes into upright sRGB pixels at about the working size, its full
/// upright size and its EXIF: the first stage of the pipeline.
public enum PhotoDecoder {
    /// The version of the set of formats this binary decodes. An entry that failed as
    /// `unsupported-format` under an older set may decode now (stale reason `decoder`).
    /// 1: JPEG and PNG. 2: HEIF/HEIC, AVIF and WebP too.
    public static let decoderVersion = 2

    /// Decodes JPEG, PNG, WebP, HEIF/HEIC and AVIF, told apart by their bytes.
    ///
    /// - JPEGs are decoded at the smallest DCT scale that still covers `options.jpegLongSide` (the
    ///   working size less 1/32) on the long side, WebPs are scaled down while decoding; PNGs are
    ///   shrunk by area averaging row by row as they decode (`PNGRowDecoder`; libpng's whole
    ///   decode for the rarer kinds), HEIF (which cannot be decoded scaled) right after decoding.
    /// - Orientation: JPEG, PNG and WebP use their EXIF orientation. HEIF/AVIF are upright as
    ///   decoded (libheif applies `irot`/`imir`); their EXIF orientation is never applied on top.
    ///   `width`/`height` are the full-resolution upright size.
    /// - Colour: an embedded ICC profile (or HEIF `nclx` description) is converted to sRGB at the
    ///   decoded size; an unusable one leaves the pixels as sRGB and adds a warning.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(ProcessingError) -> DecodedPhoto {
        guard !bytes.isEmpty else { throw .truncated("empty file") }
        guard let format = ImageFormat.detect(bytes) else {
            throw .unsupportedFormat("unknown (not an image)")
        }
        switch format {
        case .jpeg:
            let decoded = try StageClock.measure(.decode) { () throws(ProcessingError) in
                try JPEGCodec.decodeScaled(bytes, maxPixels: options.maxPixels, minimumLongSide: options.jpegLongSide)
            }
            let exif = StageClock.measure(.exif) { ExifReader.read(fromJPEG: bytes) }
            let profile = JPEGSegments.iccProfile(in: bytes).map(ColorProfile.icc)
            return finished(format: format, width: decoded.fullWidth, height: decoded.fullHeight, image: decoded.image,
                            exif: exif, orientation: exif?.orientation, profile: profile)
        case .png:
            // The common PNGs are reduced row by row as they decode (counted as decoding); the
            // rest are decoded whole by libpng, then reduced.
            let reduced = try StageClock.measure(.decode) { () throws(ProcessingError) in
                try PNGRowDecoder.decodeReduced(bytes, maxPixels: options.maxPixels, workingSize: options.workingSize)
            }
            let exif = StageClock.measure(.exif) { PNGCodec.exifChunk(bytes).flatMap { ExifReader.read(tiffBlock: $0) } }
            let profile = PNGCodec.iccProfile(bytes).map(ColorProfile.icc)
            if let reduced {
                return finished(format: format, width: reduced.width, height: reduced.height, image: reduced.image,
                                exif: exif, orientation: exif?.orientation, profile: profile)
            }
            let full = try StageClock.measure(.decode) { () throws(ProcessingError) in try PNGCodec.decode(bytes, maxPixels: options.maxPixels) }
            let image = StageClock.measure(.resize) { ImageResizer.reducedToWorkingSize(full, workingSize: options.workingSize) }
            return finished(format: format, width: full.width, height: full.height, image: image,
                            exif: exif, orientation: exif?.orientation, profile: profile)
        case .webp:
            let decoded = try StageClock.measure(.decode) { () throws(ProcessingError) in
                try WebPCodec.decodeScaled(bytes, maxPixels: options.maxPixels, workingSize: options.workingSize)
            }
            let exif = StageClock.measure(.exif) { WebPChunks.exif(bytes).flatMap { ExifReader.read(tiffBlock: $0) } }
            return finished(format: format, width: decoded.fullWidth, height: decoded.fullHeight, image: decoded.image,
                            exif: exif, orientation: exif?.orientation, profile: WebPChunks.iccProfile(bytes).map(ColorProfile.icc))
        case .heif, .avif:
            let decoded = try StageClock.measure(.decode) { () throws(ProcessingError) in
                try HEIFCodec.decode(bytes, maxPixels: options.maxPixels, workingSize: options.workingSize)
            }
            let exif = StageClock.measure(.exif) { decoded.exif.flatMap { ExifReader.read(tiffBlock: $0) } }
            // Upright already: the container's transformations are the orientation.
            return finished(format: format, width: decoded.width, height: decoded.height, image: decoded.image,
                            exif: exif, orientation: nil, profile: decoded.colorProfile)
        default:
            throw .unsupportedFormat(format.displayName)
        }
    }

    /// Applies `orientation` (EXIF 1...8) and converts to sRGB.
    private static func finished(
        format: ImageFormat, width: Int, height: Int, image: RGBAImage, exif: ExifMetadata?, orientation: Int?, profile: ColorProfile?
    ) -> DecodedPhoto {
        let orientation = orientation ?? 1
        let swapsSides = (5...8).contains(orientation)
        let converted = StageClock.measure(.orientAndColor) { ColorConverter.toSRGB(image, from: profile) }
        return DecodedPhoto(
            format: format,
            width: swapsSides ? height : width,
            height: swapsSides ? width : height,
            image: StageClock.measure(.orientAndColor) { Orientation.apply(orientation, to: converted.image) },
            exif: exif,
            warnings: converted.warning.map { [$0] } ?? [])
    }
}
