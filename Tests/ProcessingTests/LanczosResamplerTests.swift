import Testing
@testable import Processing

/// The network's input resize must be Pillow's `resize(size, Image.LANCZOS)` byte for byte (what
/// rembg feeds u2netp). Expected values from Pillow 12.3 on the same pattern.
@Suite struct LanczosResamplerTests {
    static func pattern(width: Int, height: Int) -> RGBAImage {
        var pixels = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 { pixels.append(UInt8((x * 37 + y * 91 + channel * 53 + (x * y) % 17 * 11) % 256)) }
                pixels.append(255)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func rgb(_ image: RGBAImage) -> [Int] {
        image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map { Int($0.element) }
    }

    @Test func shrinkMatchesPillow() {
        let out = LanczosResampler.resized(Self.pattern(width: 13, height: 7), width: 5, height: 3)
        #expect(Self.rgb(out) == [
            107, 130, 146, 136, 139, 145, 127, 123, 119, 76, 101, 151, 127, 187, 114, 125, 146, 113, 129, 122, 109,
            143, 118, 131, 105, 88, 148, 127, 130, 138, 120, 148, 141, 134, 120, 125, 113, 96, 125, 163, 96, 152, 148, 112, 148,
        ])
        #expect(out.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test func largerShrinkMatchesPillow() {
        let values = Self.rgb(LanczosResampler.resized(Self.pattern(width: 50, height: 31), width: 16, height: 16))
        #expect(values.reduce(0, +) == 98376)
        #expect(Array(values.prefix(12)) == [102, 133, 155, 141, 146, 141, 95, 98, 122, 117, 159, 124])
        #expect(values.enumerated().reduce(0) { ($0 + $1.offset * $1.element) % 1_000_003 } == 719_072)
    }

    @Test func enlargeMatchesPillow() {
        let values = Self.rgb(LanczosResampler.resized(Self.pattern(width: 6, height: 4), width: 9, height: 7))
        #expect(Array(values.prefix(27)) == [0, 45, 89, 7, 56, 100, 36, 78, 139, 53, 101, 190, 69, 147, 216, 102, 192, 251, 154, 214, 255, 193, 236, 128, 204, 248, 0])
        #expect(Array(values.suffix(9)) == [47, 45, 149, 37, 148, 215, 106, 192, 240])
    }
}
