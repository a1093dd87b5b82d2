/// Puts an image on a platform's canvas: scaled (up or down, aspect kept) to fit inside it, or to
/// a size of the caller's, centred, with transparent padding.
public enum CanvasFitter {
    /// The size `width` x `height` scaled to fit inside `maxWidth` x `maxHeight` so that it touches
    /// at least one side (each side at least 1).
    public static func fittedSize(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        let scale = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height))
        let fittedWidth = min(maxWidth, max(1, Int((Double(width) * scale).rounded())))
        let fittedHeight = min(maxHeight, max(1, Int((Double(height) * scale).rounded())))
        return (fittedWidth, fittedHeight)
    }

    /// The image scaled to fit inside `maxWidth` x `maxHeight`, touching at least one side.
    public static func fitted(_ image: RGBAImage, maxWidth: Int, maxHeight: Int) -> RGBAImage {
        let size = fittedSize(width: image.width, height: image.height, maxWidth: maxWidth, maxHeight: maxHeight)
        return ImageResizer.resized(image, width: size.width, height: size.height)
    }

    /// The image fitted inside `width` x `height` less `margin` on every side, centred on a
    /// transparent canvas of exactly `width` x `height`.
    public static func onCanvas(_ image: RGBAImage, width: Int, height: Int, margin: Int = 0) -> RGBAImage {
        let inner = fittedSize(width: image.width, height: image.height, maxWidth: max(1, width - 2 * margin), maxHeight: max(1, height - 2 * margin))
        return centred(image, resizedTo: inner, onCanvas: (width, height))
    }

    /// The image resampled to `size` (which must fit inside `canvas`) and centred on a transparent
    /// canvas of exactly `canvas`; just the resampled image when the two sizes are the same.
    public static func centred(_ image: RGBAImage, resizedTo size: (width: Int, height: Int), onCanvas canvas: (width: Int, height: Int)) -> RGBAImage {
        let inner = ImageResizer.resized(image, width: size.width, height: size.height)
        if (inner.width, inner.height) == canvas { return inner }
        var result = RGBAImage(width: canvas.width, height: canvas.height, red: 0, green: 0, blue: 0, alpha: 0)
        ImageCompositor.copy(inner, into: &result, x: (canvas.width - inner.width) / 2, y: (canvas.height - inner.height) / 2)
        return result
    }
}
