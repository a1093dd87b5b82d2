/// How a sticker is drawn from a cut-out: its size, its white outline and an optional shadow.
public struct StickerStyle: Sendable, Equatable, Codable {
    /// Long side of the sticker in pixels, outline and shadow included. A subject too small in its
    /// photo to fill it (`StickerRenderer.maxEnlargement`) makes a smaller sticker.
    public var size: Int
    /// Width of the white outline in pixels at a 512-pixel sticker (scaled with `size`); 0 for none.
    /// A smaller sticker from a small source keeps the width `size` gives, not one scaled down
    /// with it: apps show it at the scale of its pack's full-size stickers, outline beside outline.
    public var outline: Int
    /// A soft shadow under the sticker, as on a real one peeled onto paper.
    public var shadow: Bool

    public static let `default` = StickerStyle(size: 512, outline: 8, shadow: false)

    public init(size: Int, outline: Int, shadow: Bool) {
        self.size = size
        self.outline = outline
        self.shadow = shadow
    }

    /// The outline width at this sticker's size, in pixels.
    var outlinePixels: Float { Float(outline) * Float(size) / 512 }

    /// The shadow's blur radius and downward offset, in pixels.
    var shadowRadius: Int { shadow ? max(1, size / 64) : 0 }
    var shadowOffset: Int { shadow ? max(1, size / 96) : 0 }

    /// Transparent room kept around the subject for the outline, its anti-aliasing and the shadow.
    public var padding: Int { Int(outlinePixels.rounded(.up)) + 2 + (shadow ? 3 * shadowRadius + shadowOffset : 0) }
}
