/// A contact sheet: a pack's stickers in a grid, each over a gradient of its own palette, under
/// the pack's title — how a person checks a pack before sending it.
public struct ContactSheet: Sendable {
    /// One cell of the sheet.
    public struct Cell: Sendable {
        public var sticker: RGBAImage
        public var palette: Palette
        /// A short line under the cell (the sticker's position and id); drawn in the built-in font.
        public var caption: String

        public init(sticker: RGBAImage, palette: Palette, caption: String) {
            self.sticker = sticker
            self.palette = palette
            self.caption = caption
        }
    }

    /// Side of a gradient tile, in pixels.
    public var tileSize = 240
    /// Space between the tile's edge and the sticker.
    public var tilePadding = 16
    /// Space between tiles and around the grid.
    public var gap = 20
    public var margin = 28
    /// How many times the built-in font is scaled up for the title and for the captions.
    public var titleScale = 4, captionScale = 2

    public init() {}

    /// The sheet for `cells` in `columns` columns (at least 1, at most the number of cells).
    public func render(title: String, cells: [Cell], columns: Int) -> RGBAImage {
        let columns = max(1, min(columns, max(1, cells.count)))
        let rows = max(1, (cells.count + columns - 1) / columns)
        let captionHeight = BitmapFont.glyphHeight * captionScale + 12
        let titleHeight = BitmapFont.glyphHeight * titleScale + 24
        let cellHeight = tileSize + captionHeight
        let width = max(2 * margin + columns * tileSize + (columns - 1) * gap, 2 * margin + BitmapFont.width(of: title, scale: titleScale))
        let height = margin + titleHeight + rows * cellHeight + (rows - 1) * gap + margin
        var sheet = RGBAImage(width: width, height: height, red: 0xF7, green: 0xF7, blue: 0xF9, alpha: 255)

        BitmapFont.draw(title, into: &sheet, x: margin, y: margin, scale: titleScale, red: 0x22, green: 0x22, blue: 0x28)
        ImageCompositor.fill(&sheet, x: margin, y: margin + titleHeight - 12, width: width - 2 * margin, height: 2, red: 0xD8, green: 0xD8, blue: 0xDE)

        let gridLeft = (width - (columns * tileSize + (columns - 1) * gap)) / 2
        let inner = tileSize - 2 * tilePadding
        for (index, cell) in cells.enumerated() {
            let x = gridLeft + (index % columns) * (tileSize + gap)
            let y = margin + titleHeight + (index / columns) * (cellHeight + gap)
            // The gradient is softened toward white and the sticker gets a soft shadow, so a sticker
            // whose main colour is the gradient's still stands out.
            let stops = PaletteGradient.stops(for: cell.palette).map { PaletteGradient.mixed($0, withWhite: 0.35) }
            let tile = PaletteGradient.tile(stops: stops, width: tileSize, height: tileSize, cornerRadius: 18)
            ImageCompositor.blend(tile, over: &sheet, x: x, y: y)
            let sticker = CanvasFitter.fitted(cell.sticker, maxWidth: inner, maxHeight: inner)
            let stickerX = x + (tileSize - sticker.width) / 2, stickerY = y + (tileSize - sticker.height) / 2
            let shadow = Self.shadow(of: sticker, radius: 6, opacity: 0.35)
            ImageCompositor.blend(shadow, over: &sheet, x: stickerX - 6, y: stickerY - 6 + 4)
            ImageCompositor.blend(sticker, over: &sheet, x: stickerX, y: stickerY)
            let captionWidth = BitmapFont.width(of: cell.caption, scale: captionScale)
            BitmapFont.draw(
                cell.caption, into: &sheet, x: x + (tileSize - captionWidth) / 2, y: y + tileSize + 8, scale: captionScale,
                red: 0x55, green: 0x55, blue: 0x5E
            )
        }
        return sheet
    }

    /// A black, blurred copy of the image's alpha, `radius` pixels larger on every side.
    static func shadow(of image: RGBAImage, radius: Int, opacity: Float) -> RGBAImage {
        let width = image.width + 2 * radius, height = image.height + 2 * radius
        var alpha = [Float](repeating: 0, count: width * height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                alpha[(y + radius) * width + x + radius] = Float(image.pixels[(y * image.width + x) * 4 + 3]) / 255
            }
        }
        // Two box blurs approximate a Gaussian.
        let blurred = BoxFilter.mean(BoxFilter.mean(alpha, width: width, height: height, radius: radius / 2 + 1), width: width, height: height, radius: radius / 2 + 1)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0..<(width * height) {
            pixels[index * 4 + 3] = UInt8(min(255, max(0, (blurred[index] * opacity * 255).rounded())))
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
