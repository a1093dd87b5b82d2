/// One dominant colour of a sticker's subject: sRGB hex, Oklab coordinates, and its share of the subject.
public struct PaletteColor: Sendable, Equatable, Codable {
    /// `#rrggbb`, lower case.
    public var hex: String
    /// Oklab lightness (0...1) and opponent axes (about -0.5...0.5).
    public var l, a, b: Double
    /// Fraction of the subject's (alpha-weighted) pixels, in (0, 1].
    public var share: Double

    public init(hex: String, l: Double, a: Double, b: Double, share: Double) {
        self.hex = hex
        self.l = l
        self.a = a
        self.b = b
        self.share = share
    }
}

/// The dominant colours of a sticker, largest share first. Empty until the palette stage runs.
public struct Palette: Sendable, Equatable, Codable {
    public var colors: [PaletteColor]

    public init(colors: [PaletteColor] = []) {
        self.colors = colors
    }
}
