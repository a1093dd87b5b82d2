import Testing

@testable import Processing

/// A blob on a transparent background (a sticker-like image), `width` x `height`.
func stickerLike(width: Int, height: Int, seed: UInt8 = 0) -> RGBAImage {
    var image = RGBAImage(width: width, height: height, red: 0, green: 0, blue: 0, alpha: 0)
    let cx = Double(width) / 2, cy = Double(height) / 2, radius = Double(min(width, height)) * 0.4
    for y in 0..<height {
        for x in 0..<width {
            let dx = Double(x) - cx, dy = Double(y) - cy
            guard dx * dx + dy * dy < radius * radius else { continue }
            let offset = (y * width + x) * 4
            image.pixels[offset] = UInt8(truncatingIfNeeded: x &+ Int(seed))
            image.pixels[offset + 1] = UInt8(truncatingIfNeeded: y * 2)
            image.pixels[offset + 2] = 180 &+ seed
            image.pixels[offset + 3] = 255
        }
    }
    return image
}

@Suite("Export imaging: WebP, canvases, byte budgets, contact sheets", .timeLimit(.minutes(15)))
struct ExportImagingTests {
    @Test("lossless WebP round-trips every visible pixel, and encoding is deterministic")
    func webpLossless() throws {
        let image = stickerLike(width: 120, height: 90)
        let webp = try WebPCodec.encode(image, mode: .lossless)
        #expect(webp.starts(with: Array("RIFF".utf8)))
        #expect(Array(webp[8..<12]) == Array("WEBP".utf8))
        #expect(WebPCodec.size(of: webp)! == (120, 90))
        let decoded = try WebPCodec.decode(webp)
        for index in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[index + 3] > 0 {
            #expect(Array(decoded.pixels[index..<index + 4]) == Array(image.pixels[index..<index + 4]))
        }
        #expect(try WebPCodec.encode(image, mode: .lossless) == webp)
        #expect(try WebPCodec.encode(image, mode: .lossy(quality: 50)) == WebPCodec.encode(image, mode: .lossy(quality: 50)))
    }

    @Test("lossy WebP gets smaller with lower quality and keeps alpha")
    func webpLossy() throws {
        let image = Fixtures.noise(width: 128, height: 128)
        let high = try WebPCodec.encode(image, mode: .lossy(quality: 90))
        let low = try WebPCodec.encode(image, mode: .lossy(quality: 10))
        #expect(low.count < high.count)
        let sticker = stickerLike(width: 64, height: 64)
        let decoded = try WebPCodec.decode(try WebPCodec.encode(sticker, mode: .lossy(quality: 60)))
        #expect(decoded.pixel(x: 0, y: 0).alpha == 0)
        #expect(decoded.pixel(x: 32, y: 32).alpha == 255)
    }

    @Test("WebP refuses what it cannot encode, and non-WebP bytes")
    func webpErrors() {
        #expect(WebPCodec.size(of: [1, 2, 3]) == nil)
        #expect(throws: ProcessingError.self) { try WebPCodec.decode(Array("RIFF0000WEBPVP8 ".utf8)) }
    }

    @Test("a canvas centres the fitted image on transparency, exactly the asked size")
    func canvas() {
        let image = RGBAImage(width: 200, height: 100, red: 255, green: 0, blue: 0)
        let canvas = CanvasFitter.onCanvas(image, width: 512, height: 512)
        #expect(canvas.width == 512 && canvas.height == 512)
        #expect(canvas.pixel(x: 256, y: 0).alpha == 0)
        #expect(canvas.pixel(x: 256, y: 256) == (255, 0, 0, 255))
        #expect(canvas.pixel(x: 0, y: 256).alpha == 255)  // touches the left side
        let size = CanvasFitter.fittedSize(width: 300, height: 700, maxWidth: 512, maxHeight: 512)
        #expect(size.height == 512 && size.width == 219)
    }

    @Test("colour reduction keeps full transparency and full opacity exact")
    func reduction() {
        var image = Fixtures.noise(width: 32, height: 32)
        image.pixels[3] = 0
        image.pixels[7] = 128
        let reduced = ColorReducer.reduced(image, bits: 3)
        #expect(reduced.pixels[3] == 0 && Array(reduced.pixels[0..<3]) == [0, 0, 0])
        #expect(reduced.pixels[11] == 255)
        #expect(Set(stride(from: 8, to: reduced.pixels.count, by: 4).map { reduced.pixels[$0] }).count <= 8)
    }

    @Test("the byte budget keeps lossless when it fits, goes lossy when it must, and says when nothing fits")
    func budget() throws {
        let small = stickerLike(width: 128, height: 128)
        guard case .fits(let png) = try ByteBudgetEncoder.encode(small, types: [.png, .webp], maxBytes: 512_000) else {
            Issue.record("a small sticker should fit as PNG")
            return
        }
        #expect(png.type == .png && png.encoding == "png")

        let noise = Fixtures.noise(width: 256, height: 256)
        guard case .fits(let lossy) = try ByteBudgetEncoder.encode(noise, types: [.webp], maxBytes: 30_000) else {
            Issue.record("noise should fit 30 KB as lossy WebP")
            return
        }
        #expect(lossy.type == .webp && lossy.encoding.hasPrefix("webp-q") && lossy.bytes.count <= 30_000)
        #expect(try ByteBudgetEncoder.encode(noise, types: [.webp], maxBytes: 30_000) == .fits(lossy))

        guard case .fits(let reduced) = try ByteBudgetEncoder.encode(noise, types: [.png], maxBytes: 150_000) else {
            Issue.record("noise should fit 150 KB as a reduced PNG")
            return
        }
        #expect(reduced.encoding.hasSuffix("bit") && reduced.bytes.count <= 150_000)

        guard case .tooLarge(let smallest, _) = try ByteBudgetEncoder.encode(noise, types: [.png], maxBytes: 1_000) else {
            Issue.record("1 KB of noise cannot fit")
            return
        }
        #expect(smallest > 1_000)
    }

    @Test("a contact sheet draws a gradient per palette (neutral when empty), a grid and the title")
    func contactSheet() {
        let sticker = stickerLike(width: 100, height: 100)
        let orange = Palette(colors: [PaletteColor(hex: "#ff8800", l: 0.7, a: 0.1, b: 0.15, share: 1)])
        let cells = [
            ContactSheet.Cell(sticker: sticker, palette: orange, caption: "#1"),
            ContactSheet.Cell(sticker: sticker, palette: Palette(), caption: "#2"),
            ContactSheet.Cell(sticker: sticker, palette: Palette(), caption: "#3"),
        ]
        let layout = ContactSheet()
        let sheet = layout.render(title: "Beach", cells: cells, columns: 2)
        #expect(sheet.width == 2 * layout.margin + 2 * layout.tileSize + layout.gap)
        #expect(!sheet.hasTransparency)
        // The first tile's bottom-right corner region is orange-ish, the second's neutral grey.
        let titleHeight = BitmapFont.glyphHeight * layout.titleScale + 24
        let tileTop = layout.margin + titleHeight
        let first = sheet.pixel(x: layout.margin + layout.tileSize - 20, y: tileTop + layout.tileSize - 20)
        #expect(first.red > first.blue + 60)
        let second = sheet.pixel(x: layout.margin + 2 * layout.tileSize + layout.gap - 20, y: tileTop + layout.tileSize - 20)
        #expect(abs(Int(second.red) - Int(second.blue)) < 20)
        // The title is drawn in dark ink.
        var ink = 0
        for y in layout.margin..<(layout.margin + 28) {
            for x in layout.margin..<(layout.margin + BitmapFont.width(of: "Beach", scale: layout.titleScale)) where sheet.pixel(x: x, y: y).red < 80 {
                ink += 1
            }
        }
        #expect(ink > 100)
    }

    @Test("gradient stops: palette colours in order, one colour as a ramp, none as neutral grey")
    func gradientStops() {
        #expect(PaletteGradient.stops(for: Palette()).count == 2)
        let one = PaletteGradient.stops(for: Palette(colors: [PaletteColor(hex: "#0044cc", l: 0, a: 0, b: 0, share: 1)]))
        #expect(one.count == 2 && one[1] == (0x00, 0x44, 0xCC))
        #expect(PaletteGradient.rgb(hex: "#zzzzzz") == nil)
        #expect(BitmapFont.glyph(for: "a") == BitmapFont.glyph(for: "A"))
        #expect(BitmapFont.glyph(for: "é").count == BitmapFont.glyphHeight)
    }
}
