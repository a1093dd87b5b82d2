/// A subject mask (one byte a pixel, 255 = subject) written as a grey PNG, as `catalog cutout
/// --mask-only` does: one channel all the way, a quarter of the work of an RGBA image.
public enum MaskOutput {
    /// The mask scaled (bilinear) from `width` x `height` to `size` (the photo's full size) as a grey PNG.
    /// The scaled mask is made row by row as the encoder takes it, never whole (12 MB at 12 MP).
    /// `box` (a cut-out's guidance, in `size`'s pixels): nothing outside it, where scaling up
    /// would have spread the edge of a mask cut at the box by part of a working pixel.
    public static func png(
        _ mask: [UInt8], width: Int, height: Int, scaledTo size: (width: Int, height: Int), inside box: CutoutGuidance.Box? = nil
    ) throws(ProcessingError) -> [UInt8] {
        if size == (width, height), box == nil { return try PNGCodec.encodeGrey(mask, width: width, height: height) }
        let rows = PlaneResampler.Rows(mask.map(Float.init), width: width, height: height, toWidth: size.width, toHeight: size.height)
        return try PNGCodec.encodeGrey(width: size.width, height: size.height) { y, row in
            rows.blendBytes(row: y, into: row)
            guard let box else { return }
            if y < box.y || y >= box.y + box.height {
                row.update(repeating: 0, count: size.width)
            } else {
                row.update(repeating: 0, count: min(size.width, box.x))
                if box.x + box.width < size.width { (row + box.x + box.width).update(repeating: 0, count: size.width - box.x - box.width) }
            }
        }
    }

    /// The mask cropped to its subject (the box the sticker renderer crops to) as a grey PNG.
    public static func croppedPNG(_ mask: [UInt8], width: Int, height: Int) throws(ProcessingError) -> [UInt8] {
        guard let box = subjectBounds(mask, width: width, height: height) else { throw .noSubject("the cut-out is fully transparent") }
        var cropped = [UInt8]()
        cropped.reserveCapacity(box.width * box.height)
        for y in box.y..<(box.y + box.height) {
            cropped += mask[(y * width + box.x)..<(y * width + box.x + box.width)]
        }
        return try PNGCodec.encodeGrey(cropped, width: box.width, height: box.height)
    }

    /// The smallest box holding every value of at least the renderer's crop threshold; nil when none has.
    static func subjectBounds(_ mask: [UInt8], width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where mask[y * width + x] >= StickerRenderer.cropThreshold {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
