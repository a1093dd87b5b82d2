/// The settings a sticker is made with; stored beside each sticker so a change makes it stale.
public struct StickerSettings: Sendable, Equatable, Codable {
    /// Long side of the sticker, in pixels.
    public var size: Int
    /// Number of palette colours (1...16).
    public var paletteColors: Int

    public static let `default` = StickerSettings(size: 512, paletteColors: 5)

    public init(size: Int, paletteColors: Int) {
        self.size = size
        self.paletteColors = paletteColors
    }
}
