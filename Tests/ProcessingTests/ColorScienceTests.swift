import Processing
import Testing

/// sRGB ↔ linear ↔ Oklab against published values, and the colours people type.
@Suite(.timeLimit(.minutes(15))) struct ColorScienceTests {
    private func expectClose(_ color: OklabColor, _ l: Double, _ a: Double, _ b: Double, tolerance: Double = 1e-4) {
        #expect(abs(color.l - l) < tolerance && abs(color.a - a) < tolerance && abs(color.b - b) < tolerance, "\(color) vs (\(l), \(a), \(b))")
    }

    /// Reference values from Björn Ottosson's Oklab post and the CSS Color 4 examples.
    @Test func oklabOfThePrimariesAndWhite() {
        expectClose(SRGBColor(red: 255, green: 255, blue: 255).oklab, 1, 0, 0)
        expectClose(SRGBColor(red: 0, green: 0, blue: 0).oklab, 0, 0, 0)
        expectClose(SRGBColor(red: 255, green: 0, blue: 0).oklab, 0.627955, 0.224863, 0.125846)
        expectClose(SRGBColor(red: 0, green: 255, blue: 0).oklab, 0.866440, -0.233888, 0.179498)
        expectClose(SRGBColor(red: 0, green: 0, blue: 255).oklab, 0.452014, -0.032457, -0.311528)
    }

    @Test func srgbTransferCurve() {
        #expect(SRGBTransfer.linear(0.0) == 0)
        #expect(abs(SRGBTransfer.linear(1.0) - 1) < 1e-12)
        // Mid grey 128 is about 21.6% linear light; the linear segment below 0.04045.
        #expect(abs(SRGBTransfer.linear(code: 128) - 0.215861) < 1e-6)
        #expect(abs(SRGBTransfer.linear(0.04) - 0.04 / 12.92) < 1e-12)
        for value in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(abs(SRGBTransfer.encoded(SRGBTransfer.linear(value)) - value) < 1e-9)
        }
    }

    @Test func eightBitColoursSurviveTheRoundTrip() {
        for red in stride(from: 0, through: 255, by: 15) {
            for green in stride(from: 0, through: 255, by: 15) {
                for blue in stride(from: 0, through: 255, by: 15) {
                    let color = SRGBColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
                    #expect(color.oklab.srgb == color)
                }
            }
        }
    }

    @Test func deltaEIsAHundredTimesTheOklabDistance() {
        let white = SRGBColor(red: 255, green: 255, blue: 255).oklab
        let black = SRGBColor(red: 0, green: 0, blue: 0).oklab
        #expect(abs(white.deltaE(black) - 100) < 1e-3)
        #expect(white.deltaE(white) == 0)
    }

    @Test func hexAndNamedColours() {
        #expect(ColorName.parse("#ff8800") == SRGBColor(red: 255, green: 136, blue: 0))
        #expect(ColorName.parse("#F80") == SRGBColor(red: 255, green: 136, blue: 0))
        #expect(ColorName.parse(" Orange ") == SRGBColor(red: 255, green: 165, blue: 0))
        #expect(ColorName.parse("teal")?.hex == "#008080")
        #expect(ColorName.parse("rebeccapurple")?.hex == "#663399")
        #expect(ColorName.parse("grey") == ColorName.parse("gray"))
        #expect(ColorName.named.count == 148)
        for bad in ["", "#", "#ff88", "#ff880", "#gg8800", "ff8800", "orang", "#ff8800ff", "transparent"] {
            #expect(ColorName.parse(bad) == nil, "\(bad)")
        }
        #expect(SRGBColor(red: 0, green: 10, blue: 255).hex == "#000aff")
    }
}
