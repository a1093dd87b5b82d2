import Processing

/// A photo as it comes back from the lossy ways photos travel (JPEG q85, WebP q80, AVIF q60), and
/// the subject mask the twins share: for checking that what the catalog derives from pixels, the
/// palette above all, does not move with the encoding (the palette benchmark and its tests).
public enum LossyTwins {
    /// `photo`, made opaque, encoded in each format and decoded again, with the format's name.
    public static func of(_ photo: RGBAImage) throws -> [(format: String, image: RGBAImage)] {
        var avif = HEIFCodec.EncodeOptions(codec: .av1, quality: 60, iccProfile: nil, exif: nil, orientation: 1)
        avif.bitDepth = 8
        let opaque = withAlpha(photo, [UInt8](repeating: 255, count: photo.width * photo.height))
        return [
            ("JPEG q85", try JPEGCodec.decode(try JPEGCodec.encode(opaque, quality: 85), maxPixels: 1 << 30, minimumLongSide: 1 << 20)),
            ("WebP q80", try WebPCodec.decode(try WebPCodec.encode(opaque, mode: .lossy(quality: 80)))),
            ("AVIF q60", try HEIFCodec.decode(try HEIFCodec.encode(opaque, options: avif), maxPixels: 1 << 30, workingSize: 1 << 20).image),
        ]
    }

    /// The photo's own alpha if it has any transparency, else a centred ellipse over 80 % of each
    /// side with a soft edge (the subject a cut-out would give): the same on every twin, so only the
    /// pixels change.
    public static func subject(of image: RGBAImage) -> [UInt8] {
        let own = stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }
        if own.contains(where: { $0 < 255 }) { return own }
        let rx = Double(image.width) * 0.4, ry = Double(image.height) * 0.4
        var alpha = [UInt8](repeating: 0, count: image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let dx = (Double(x) + 0.5 - Double(image.width) / 2) / rx, dy = (Double(y) + 0.5 - Double(image.height) / 2) / ry
                let edge = (1 - (dx * dx + dy * dy).squareRoot()) * min(rx, ry) / 2
                alpha[y * image.width + x] = UInt8(max(0, min(255, (edge + 0.5) * 255)))
            }
        }
        return alpha
    }

    /// `image` with `alpha` (one byte a pixel) as its alpha.
    public static func withAlpha(_ image: RGBAImage, _ alpha: [UInt8]) -> RGBAImage {
        var pixels = image.pixels
        for (index, value) in alpha.enumerated() { pixels[index * 4 + 3] = value }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }
}
