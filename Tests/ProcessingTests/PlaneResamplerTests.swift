import Testing
@testable import Processing

/// Bilinear resampling of one plane (the mask), half-pixel centres.
@Suite(.timeLimit(.minutes(15))) struct PlaneResamplerTests {
    @Test func floatsInterpolateBetweenPixelCentres() {
        // 2 -> 4 across: centres at 0.25 and 0.75 of a source pixel; the edges are clamped.
        let out = PlaneResampler.bilinear([Float(0), 1], width: 2, height: 1, toWidth: 4, toHeight: 1)
        #expect(out == [0, 0.25, 0.75, 1])
        let down = PlaneResampler.bilinear([Float(0), 1, 2, 3], width: 1, height: 4, toWidth: 1, toHeight: 2)
        #expect(down == [0.5, 2.5])
    }

    /// The byte path must round exactly as `UInt8(min(255, max(0, value + 0.5)))` of the float
    /// path does, whatever the weights (its conversion avoids the checked initialiser).
    @Test func bytesAreTheFloatPathRoundedHalfUp() {
        var random = MaskCleanupTests.Random(state: 3)
        for (width, height, toWidth, toHeight) in [(3, 2, 17, 11), (16, 12, 173, 97), (40, 30, 41, 29), (7, 5, 3, 2)] {
            let bytes = (0..<width * height).map { _ in UInt8([0, 255, random.next(256)][random.next(3)]) }
            let floats = PlaneResampler.bilinear(bytes.map(Float.init), width: width, height: height, toWidth: toWidth, toHeight: toHeight)
            let expected = floats.map { UInt8(min(255, max(0, $0 + 0.5))) }
            #expect(PlaneResampler.bilinear(bytes, width: width, height: height, toWidth: toWidth, toHeight: toHeight) == expected)
        }
    }
}
