import CSegmentationKernels

/// Draws a sticker from a cut-out (an image whose alpha is the subject): cropped to the subject
/// with a margin, scaled so its long side is `style.size`, with a white outline of exact width
/// (from a Euclidean distance transform, anti-aliased) and an optional soft shadow.
/// A subject too small in its photo is enlarged at most `maxEnlargement` times its pixels there,
/// and the sticker is then smaller than `style.size`; its outline and shadow keep the widths of a
/// full-size sticker (apps show every sticker of a pack at one scale, so they match their neighbours).
/// The subject never touches the sticker's border: `style.padding` keeps the outermost ring of
/// pixels transparent, even where the subject was cut by the photo's own edge.
public enum StickerRenderer {
    /// Alpha below this (of 255) does not count as subject when cropping.
    static let cropThreshold: UInt8 = 8
    /// The most a subject is enlarged from its pixels in the source photo: a 32-pixel icon gives a
    /// 64-pixel subject (and a smaller sticker), not a 16-times blur with a grey halo.
    public static let maxEnlargement = 2.0

    /// The sticker of `cutout`. `sourceScale` is how many pixels of the source photo one pixel of
    /// `cutout` stands for (more than 1 when the cut-out was made from a reduced copy): it is what
    /// `maxEnlargement` is measured against. `box`, when given, is the part of `cutout` to draw instead
    /// of its subject's bounds: a clip's frames share one box, so that the subject does not jump.
    public static func render(
        _ cutout: RGBAImage, style: StickerStyle, sourceScale: Double = 1, box: (x: Int, y: Int, width: Int, height: Int)? = nil
    ) throws(ProcessingError) -> RGBAImage {
        guard style.size >= 16 else { throw .encodingFailed("a sticker must be at least 16 pixels, not \(style.size)") }
        guard let box = box ?? subjectBounds(cutout) else { throw .noSubject("the cut-out is fully transparent") }
        let padding = style.padding
        let available = style.size - 2 * padding
        guard available >= 4 else { throw .encodingFailed("outline and shadow leave no room in a \(style.size)-pixel sticker") }

        let scale = min(Double(available) / Double(max(box.width, box.height)), maxEnlargement * sourceScale)
        let scaledWidth = max(1, min(available, Int((Double(box.width) * scale).rounded())))
        let scaledHeight = max(1, min(available, Int((Double(box.height) * scale).rounded())))
        let subject = ImageResizer.resized(cutout.cropped(x: box.x, y: box.y, width: box.width, height: box.height), width: scaledWidth, height: scaledHeight)

        // The long side is `style.size` (scaled to `available`) unless the enlargement limit held it back.
        let canvasWidth = scaledWidth + 2 * padding
        let canvasHeight = scaledHeight + 2 * padding
        var canvas = [Float](repeating: 0, count: canvasWidth * canvasHeight * 4)  // premultiplied RGBA, 0...1
        let originX = (canvasWidth - scaledWidth) / 2
        let originY = (canvasHeight - scaledHeight) / 2
        var subjectAlpha = [Float](repeating: 0, count: canvasWidth * canvasHeight)
        // Premultiplied: each colour byte / 255 * alpha (C, vectorised).
        subject.pixels.withUnsafeBufferPointer { source in
            canvas.withUnsafeMutableBufferPointer { canvas in
                subjectAlpha.withUnsafeMutableBufferPointer { subjectAlpha in
                    for y in 0..<scaledHeight {
                        let target = (y + originY) * canvasWidth + originX
                        sk_sticker_premultiplied(source.baseAddress! + y * scaledWidth * 4, Int32(scaledWidth),
                                                 canvas.baseAddress! + target * 4, subjectAlpha.baseAddress! + target)
                    }
                }
            }
        }

        // The outline: white wherever the subject (alpha >= 1/2) is within `outlinePixels`, under the subject.
        var coverAlpha = subjectAlpha
        if style.outline > 0 {
            let solid = subjectAlpha.map { $0 >= 0.5 }
            let distances = DistanceTransform.distances(toSet: solid, width: canvasWidth, height: canvasHeight)
            // Per pixel: min(1, max(0, width + 0.5 - distance)) of white under the subject (C, vectorised).
            sk_sticker_outline(&canvas, &coverAlpha, distances, style.outlinePixels, distances.count)
        }

        if style.shadow {
            let shadow = boxBlurred(shifted(coverAlpha, width: canvasWidth, height: canvasHeight, down: style.shadowOffset),
                                    width: canvasWidth, height: canvasHeight, radius: style.shadowRadius, passes: 3)
            for index in 0..<shadow.count {
                let alpha = shadow[index] * 0.35 * (1 - canvas[index * 4 + 3])
                canvas[index * 4 + 3] += alpha  // black: colour channels unchanged
            }
        }

        // Straight bytes: each colour / alpha * 255 and alpha * 255, rounded and clamped (C, vectorised).
        let pixels = [UInt8](unsafeUninitializedCapacity: canvas.count) { pixels, initialized in
            sk_sticker_bytes(canvas, canvasWidth * canvasHeight, pixels.baseAddress!)
            initialized = canvas.count
        }
        return RGBAImage(width: canvasWidth, height: canvasHeight, pixels: pixels)
    }

    /// The smallest box holding every pixel with alpha of at least `cropThreshold`; nil when none has.
    public static func subjectBounds(_ image: RGBAImage) -> (x: Int, y: Int, width: Int, height: Int)? {
        let width = image.width
        var minX = width, minY = image.height, maxX = -1, maxY = -1
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                let alpha = pixels.baseAddress! + 4 * y * width + 3
                // A row's first subject pixel, then (only if it has one) its last; the columns
                // already inside the box need no look.
                guard let first = (0..<width).first(where: { alpha[4 &* $0] >= cropThreshold }) else { continue }
                let last = (max(first, maxX + 1)..<width).last(where: { alpha[4 &* $0] >= cropThreshold }) ?? first
                minX = min(minX, first)
                maxX = max(maxX, last)
                minY = min(minY, y)
                maxY = y
            }
        }
        guard maxX >= 0 else { return nil }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    private static func shifted(_ plane: [Float], width: Int, height: Int, down offset: Int) -> [Float] {
        var result = [Float](repeating: 0, count: plane.count)
        for y in min(offset, height)..<height { result.replaceSubrange(y * width ..< (y + 1) * width, with: plane[(y - offset) * width ..< (y - offset + 1) * width]) }
        return result
    }

    /// Repeated box blurs approximate a Gaussian; edges clamp.
    private static func boxBlurred(_ plane: [Float], width: Int, height: Int, radius: Int, passes: Int) -> [Float] {
        var current = plane
        var scratch = plane
        let norm = 1 / Float(2 * radius + 1)
        for _ in 0..<passes {
            for y in 0..<height {
                for x in 0..<width {
                    var sum: Float = 0
                    for dx in -radius...radius { sum += current[y * width + min(width - 1, max(0, x + dx))] }
                    scratch[y * width + x] = sum * norm
                }
            }
            for y in 0..<height {
                for x in 0..<width {
                    var sum: Float = 0
                    for dy in -radius...radius { sum += scratch[min(height - 1, max(0, y + dy)) * width + x] }
                    current[y * width + x] = sum * norm
                }
            }
        }
        return current
    }
}
