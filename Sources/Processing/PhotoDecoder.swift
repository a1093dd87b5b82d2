/// Turns a photo file's bytes into oriented pixels at about the working size, its full oriented
/// size and its EXIF: the first stage of the pipeline.
public enum PhotoDecoder {
    /// Decodes a JPEG or PNG. JPEGs are decoded at the smallest DCT scale that still covers
    /// `options.workingSize` on the long side; PNGs (which cannot be decoded scaled) are
    /// shrunk by area averaging to the same kind of size when they are at least twice as large.
    /// EXIF (JPEG APP1 or PNG `eXIf`) is read and its orientation applied; `width`/`height` are
    /// the full-resolution size after orientation.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(ProcessingError) -> DecodedPhoto {
        guard !bytes.isEmpty else { throw .truncated("empty file") }
        guard let format = ImageFormat.detect(bytes) else {
            throw .unsupportedFormat("unknown (not an image)")
        }
        switch format {
        case .jpeg:
            let decoded = try StageClock.measure(.decode) { () throws(ProcessingError) in
                try JPEGCodec.decodeScaled(bytes, maxPixels: options.maxPixels, minimumLongSide: options.workingSize)
            }
            let exif = StageClock.measure(.exif) { ExifReader.read(fromJPEG: bytes) }
            return oriented(format: format, width: decoded.fullWidth, height: decoded.fullHeight, image: decoded.image, exif: exif)
        case .png:
            let full = try StageClock.measure(.decode) { () throws(ProcessingError) in try PNGCodec.decode(bytes, maxPixels: options.maxPixels) }
            let exif = StageClock.measure(.exif) { PNGCodec.exifChunk(bytes).flatMap { ExifReader.read(tiffBlock: $0) } }
            let image = StageClock.measure(.resize) { reducedToWorkingSize(full, workingSize: options.workingSize) }
            return oriented(format: format, width: full.width, height: full.height, image: image, exif: exif)
        default:
            throw .unsupportedFormat(format.displayName)
        }
    }

    private static func oriented(format: ImageFormat, width: Int, height: Int, image: RGBAImage, exif: ExifMetadata?) -> DecodedPhoto {
        let orientation = exif?.orientation ?? 1
        let swapsSides = (5...8).contains(orientation)
        return DecodedPhoto(
            format: format,
            width: swapsSides ? height : width,
            height: swapsSides ? width : height,
            image: StageClock.measure(.orientAndColor) { Orientation.apply(orientation, to: image) },
            exif: exif)
    }

    /// Like JPEG's DCT scaling: divide both sides by the largest whole factor that keeps the long
    /// side at least `workingSize` (never enlarging).
    private static func reducedToWorkingSize(_ image: RGBAImage, workingSize: Int) -> RGBAImage {
        let longSide = max(image.width, image.height)
        guard workingSize > 0, longSide >= 2 * workingSize else { return image }
        let factor = longSide / workingSize
        let width = (image.width + factor - 1) / factor
        let height = (image.height + factor - 1) / factor
        return ImageResizer.resized(image, width: width, height: height)
    }
}
