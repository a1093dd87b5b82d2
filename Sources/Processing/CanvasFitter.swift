/// Puts an image on a platform's canvas: scaled (up or down, aspect kept) to fit inside it,
/// centred, with transparent padding.
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
        let inner = fitted(image, maxWidth: max(1, width - 2 * margin), maxHeight: max(1, height - 2 * margin))
        var canvas = RGBAImage(width: width, height: height, red: 0, green: 0, blue: 0, alpha: 0)
        ImageCompositor.copy(inner, into: &canvas, x: (width - inner.width) / 2, y: (height - inner.height) / 2)
        return canvas
    }
}
