import Processing
import Testing

/// Dominant colours of a cut-out: subject pixels only, shares, order, determinism.
@Suite(.timeLimit(.minutes(15))) struct PaletteExtractorTests {
    /// A `width`×`height` image painted by `color(x, y)` (RGBA).
    private func image(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> RGBAImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, a) = color(x, y)
                pixels += [r, g, b, a]
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Three quarters orange, one quarter teal, on a transparent blue background.
    private var orangeAndTeal: RGBAImage {
        image(width: 200, height: 160) { x, y in
            guard (20..<180).contains(x), (20..<140).contains(y) else { return (0, 0, 255, 0) }
            return x < 140 ? (255, 136, 0, 255) : (0, 128, 128, 255)
        }
    }

    @Test func sharesFollowTheSubjectAndIgnoreTransparentPixels() {
        let palette = PaletteExtractor.palette(of: orangeAndTeal, colors: 5)
        // Two flat colours: near-identical clusters are merged, so exactly two remain.
        #expect(palette.colors.map(\.hex) == ["#ff8800", "#008080"])
        #expect(abs(palette.colors[0].share - 0.75) < 0.02)
        #expect(abs(palette.colors[1].share - 0.25) < 0.02)
        #expect(abs(palette.colors.map(\.share).reduce(0, +) - 1) < 1e-9)
        #expect(!palette.colors.contains { $0.hex == "#0000ff" })
    }

    @Test func alphaWeighsEachPixel() {
        // Equal areas of red and green, but the green is half transparent: red has two thirds of the weight.
        let halfGreen = image(width: 100, height: 100) { x, _ in x < 50 ? (255, 0, 0, 255) : (0, 255, 0, 128) }
        let palette = PaletteExtractor.palette(of: halfGreen, colors: 3)
        #expect(palette.colors.first?.hex == "#ff0000")
        #expect(abs((palette.colors.first?.share ?? 0) - 255.0 / 383.0) < 0.01)
    }

    @Test func samePixelsGiveTheSamePaletteBitForBit() {
        let noisy = image(width: 300, height: 200) { x, y in
            let v = UInt8((x * 7 + y * 13) % 256), w = UInt8((x * y) % 251)
            return (v, w, UInt8((x + y) % 256), (x + y) % 17 == 0 ? 0 : 255)
        }
        let first = PaletteExtractor.palette(of: noisy, colors: 8)
        let second = PaletteExtractor.palette(of: noisy, colors: 8)
        #expect(first == second)
        #expect(first.colors.map(\.l.bitPattern) == second.colors.map(\.l.bitPattern))
        #expect((1...8).contains(first.colors.count))
        #expect(zip(first.colors, first.colors.dropFirst()).allSatisfy { $0.share >= $1.share })
    }

    @Test func colourCountIsClampedAndNeverExceeded() {
        let gradient = image(width: 256, height: 64) { x, y in (UInt8(x), UInt8(255 - x), UInt8(y * 4), 255) }
        #expect(PaletteExtractor.palette(of: gradient, colors: 1).colors.count == 1)
        #expect(PaletteExtractor.palette(of: gradient, colors: 0).colors.count == 1)
        let sixteen = PaletteExtractor.palette(of: gradient, colors: 40)
        #expect((2...16).contains(sixteen.colors.count))
        // Colours that remain are distinguishable (merging is in toe-corrected Oklab, whose lightness
        // steps near white are up to ~1.2 times plain Oklab's).
        for (i, left) in sixteen.colors.enumerated() {
            for right in sixteen.colors.dropFirst(i + 1) {
                let distance = OklabColor(l: left.l, a: left.a, b: left.b).deltaE(OklabColor(l: right.l, a: right.a, b: right.b))
                #expect(distance >= PaletteExtractor.mergeDistance / 1.2)
            }
        }
    }

    @Test func fullyTransparentImageHasNoPalette() {
        let empty = RGBAImage(width: 40, height: 30, red: 255, green: 255, blue: 255, alpha: 0)
        #expect(PaletteExtractor.palette(of: empty, colors: 5).colors.isEmpty)
    }

    @Test func oneColourImageHasOneColourOfFullShare() {
        let flat = RGBAImage(width: 64, height: 48, red: 0, green: 128, blue: 128)
        let palette = PaletteExtractor.palette(of: flat, colors: 5)
        #expect(palette.colors.count == 1)
        #expect(palette.colors.first?.hex == "#008080")
        #expect(palette.colors.first?.share == 1)
    }
}
