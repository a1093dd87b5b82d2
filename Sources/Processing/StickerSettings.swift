/// The settings a sticker is made with; stored beside each sticker so a change makes it stale.
public struct StickerSettings: Sendable, Equatable, Codable {
    /// Long side of the sticker, in pixels.
    public var size: Int
    /// White outline width in pixels at a 512-pixel sticker; 0 for none.
    public var outline: Int
    /// A soft shadow under the sticker.
    public var shadow: Bool
    /// Number of palette colours (1...16).
    public var paletteColors: Int
    /// The segmentation model that cuts the subject out.
    public var model: CutoutModel
    /// The arithmetic the model ran in (`cutout.precision` resolved on the machine that made the sticker).
    public var precision: InferencePrecision

    public static let `default` = StickerSettings(size: 512, outline: 8, shadow: false, paletteColors: 5, model: .default)

    public init(size: Int, outline: Int = 8, shadow: Bool = false, paletteColors: Int, model: CutoutModel = .default,
                precision: InferencePrecision = PrecisionSetting.default.resolved) {
        self.size = size
        self.outline = outline
        self.shadow = shadow
        self.paletteColors = paletteColors
        self.model = model
        self.precision = precision
    }

    /// How the renderer draws the sticker.
    public var style: StickerStyle { StickerStyle(size: size, outline: outline, shadow: shadow) }

    private enum CodingKeys: String, CodingKey { case size, outline, shadow, paletteColors, model, precision }

    // Pipeline-0 entries were stored before outline and shadow existed: they decode with 0 / false,
    // which is what those stickers had, so comparing settings still tells them apart. Stickers
    // stored before the model was a setting were all made by u2netp (`CutoutModel.legacy`), and
    // those stored before precision was one in float32 (`InferencePrecision.legacy`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        size = try container.decode(Int.self, forKey: .size)
        outline = try container.decodeIfPresent(Int.self, forKey: .outline) ?? 0
        shadow = try container.decodeIfPresent(Bool.self, forKey: .shadow) ?? false
        paletteColors = try container.decode(Int.self, forKey: .paletteColors)
        model = try container.decodeIfPresent(CutoutModel.self, forKey: .model) ?? .legacy
        precision = try container.decodeIfPresent(InferencePrecision.self, forKey: .precision) ?? .legacy
    }
}
