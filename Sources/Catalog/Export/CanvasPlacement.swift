import Processing

/// Where a sticker goes on a platform's canvas: the canvas's size, and the size the sticker is
/// scaled to, centred on it (transparent padding around).
public struct CanvasPlacement: Sendable, Equatable {
    public var canvasWidth: Int
    public var canvasHeight: Int
    public var width: Int
    public var height: Int
}

extension CanvasRule {
    /// The placement of a `width` x `height` sticker whose settings make full-size stickers of
    /// `fullSize` on the long side (nil when unknown: the sticker is taken as full size); nil for
    /// `.asStored`.
    ///
    /// A full-size sticker is scaled to fit the canvas, as before. A smaller one (its subject was
    /// too small in its photo to be enlarged to full size) is scaled as its full-size neighbours
    /// are, so every sticker of a pack keeps one scale and one outline width, and padded: centred
    /// on the square, or, for `.longSide`, on a canvas as long as the rule asks along its long
    /// side and as wide as itself across, so it is never blown up past what its photo holds.
    public func placement(width: Int, height: Int, fullSize: Int?) -> CanvasPlacement? {
        let side: Int
        switch self {
        case .asStored: return nil
        case .longSide(let value), .square(let value): side = value
        }
        let size: (width: Int, height: Int)
        if let fullSize, fullSize > max(width, height) {
            let scale = Double(side) / Double(fullSize)
            size = (min(side, max(1, Int((Double(width) * scale).rounded()))), min(side, max(1, Int((Double(height) * scale).rounded()))))
        } else {
            size = CanvasFitter.fittedSize(width: width, height: height, maxWidth: side, maxHeight: side)
        }
        let canvas: (width: Int, height: Int)
        switch self {
        case .square: canvas = (side, side)
        default: canvas = width >= height ? (side, size.height) : (size.width, side)
        }
        return CanvasPlacement(canvasWidth: canvas.width, canvasHeight: canvas.height, width: size.width, height: size.height)
    }
}

extension CanvasPlacement {
    /// `image` scaled to this placement's size and centred on its canvas.
    func place(_ image: RGBAImage) -> RGBAImage {
        CanvasFitter.centred(image, resizedTo: (width, height), onCanvas: (canvasWidth, canvasHeight))
    }
}
