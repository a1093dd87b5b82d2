import Testing
@testable import Processing

@Suite(.timeLimit(.minutes(15)))
struct MaskOutputTests {
    /// A mask with soft and hard edges and noise: every byte value appears.
    static func mask(width: Int, height: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<(width * height)).map { index in
            let x = index % width, y = index / width
            if (x - width / 2) * (x - width / 2) + (y - height / 2) * (y - height / 2) < width * height / 8 { return 255 }
            return x % 7 == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8(x * 255 / width)
        }
    }

    /// The grey channel of a decoded grey PNG.
    static func grey(_ png: [UInt8], pixels: Int) throws -> [UInt8] {
        let image = try PNGCodec.decode(png, maxPixels: pixels)
        return stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] }
    }

    @Test(arguments: [(37, 23, 400, 251), (40, 30, 40, 30), (50, 40, 20, 16), (1, 1, 9, 5), (320, 240, 1003, 752)])
    func scaledMaskIsTheBilinearResamplingRowByRow(sizes: (Int, Int, Int, Int)) throws {
        let (width, height, toWidth, toHeight) = sizes
        let mask = Self.mask(width: width, height: height)
        let png = try MaskOutput.png(mask, width: width, height: height, scaledTo: (toWidth, toHeight))
        #expect(try PNGCodec.readHeader(png) == (toWidth, toHeight))
        let expected = PlaneResampler.bilinear(mask, width: width, height: height, toWidth: toWidth, toHeight: toHeight)
        #expect(try Self.grey(png, pixels: toWidth * toHeight) == expected)
    }

    @Test func rowByRowEncodingEqualsTheWholeImageEncoding() throws {
        let mask = Self.mask(width: 123, height: 45)
        let whole = try PNGCodec.encodeGrey(mask, width: 123, height: 45)
        let rows = try PNGCodec.encodeGrey(width: 123, height: 45) { y, row in
            for x in 0..<123 { row[x] = mask[y * 123 + x] }
        }
        #expect(rows == whole)
    }
}
