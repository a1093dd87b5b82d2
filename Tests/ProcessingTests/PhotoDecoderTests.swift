import Testing
@testable import Processing

@Suite(.timeLimit(.minutes(15)))
struct PhotoDecoderTests {
    /// The upright scene: 64x48, red top left, green top right, blue bottom left, yellow bottom right.
    static let upright = Fixtures.quadrants(width: 64, height: 48)

    /// How a camera would store the upright scene with each orientation tag: the inverse transform
    /// (6 and 8 undo each other; the others undo themselves).
    static func stored(for orientation: Int) -> RGBAImage {
        let inverse = [6: 8, 8: 6][orientation] ?? orientation
        return Orientation.apply(inverse, to: upright)
    }

    static func expectUpright(_ image: RGBAImage, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(image.width == 64 && image.height == 48, sourceLocation: sourceLocation)
        guard image.width == 64, image.height == 48 else { return }
        #expect(Fixtures.matches(image.pixel(x: 8, y: 8), Fixtures.red), sourceLocation: sourceLocation)
        #expect(Fixtures.matches(image.pixel(x: 56, y: 8), Fixtures.green), sourceLocation: sourceLocation)
        #expect(Fixtures.matches(image.pixel(x: 8, y: 40), Fixtures.blue), sourceLocation: sourceLocation)
        #expect(Fixtures.matches(image.pixel(x: 56, y: 40), Fixtures.yellow), sourceLocation: sourceLocation)
    }

    @Test(arguments: 1...8)
    func jpegIsTurnedUprightForEveryOrientation(orientation: Int) throws {
        let stored = Self.stored(for: orientation)
        #expect((stored.width, stored.height) == (orientation >= 5 ? (48, 64) : (64, 48)))
        let jpeg = try ExifWriter.jpegByInserting(
            ExifMetadata(make: "Test", orientation: orientation), into: JPEGCodec.encode(stored, quality: 95))
        let photo = try PhotoDecoder.decode(jpeg, options: DecodeOptions())
        #expect(photo.format == .jpeg)
        #expect(photo.exif?.orientation == orientation)
        #expect(photo.width == 64 && photo.height == 48)
        Self.expectUpright(photo.image)
    }

    @Test(arguments: [1, 3, 6, 8])
    func pngIsTurnedUprightByItsExifChunk(orientation: Int) throws {
        let png = try PNGCodec.pngByInserting(
            exifChunk: ExifWriter.exifBlock(ExifMetadata(orientation: orientation)), into: PNGCodec.encode(Self.stored(for: orientation)))
        let photo = try PhotoDecoder.decode(png, options: DecodeOptions())
        #expect(photo.format == .png)
        #expect(photo.width == 64 && photo.height == 48)
        #expect(photo.image == Self.upright)  // lossless
    }

    @Test func fullSizeIsReportedWhileDecodingScaled() throws {
        let jpeg = try ExifWriter.jpegByInserting(
            ExifMetadata(orientation: 6), into: JPEGCodec.encode(RGBAImage(width: 4000, height: 3000, red: 10, green: 20, blue: 30)))
        let photo = try PhotoDecoder.decode(jpeg, options: DecodeOptions(workingSize: 1024))
        #expect(photo.width == 3000 && photo.height == 4000)  // full size, oriented
        #expect(photo.image.width == 750 && photo.image.height == 1000)  // 1/4 scale, oriented
    }

    @Test func unrotatedFullSizeIsFourThousandByThreeThousand() throws {
        let jpeg = try JPEGCodec.encode(RGBAImage(width: 4000, height: 3000, red: 10, green: 20, blue: 30))
        let photo = try PhotoDecoder.decode(jpeg, options: DecodeOptions(workingSize: 1024))
        #expect(photo.width == 4000 && photo.height == 3000)
        #expect(photo.image.width == 1000 && photo.image.height == 750)
        #expect(photo.exif == nil)
    }

    /// A DCT scale may fall short of the working size by at most 1/32: 12 MP cameras' 4000 and
    /// 4032 pixels take 1/4 (1000 and 1008 >= 992), 3900 pixels (975 at 1/4) still take 3/8.
    @Test func jpegScaleMayFallShortOfTheWorkingSizeByAThirtySecond() throws {
        let options = DecodeOptions(workingSize: 1024)
        #expect(options.jpegLongSide == 992)
        for (width, decodedWidth) in [(4032, 1008), (4000, 1000), (3968, 992), (3900, 1463), (3000, 1125), (1024, 1024)] {
            let jpeg = try JPEGCodec.encode(RGBAImage(width: width, height: 64, red: 10, green: 20, blue: 30))
            let photo = try PhotoDecoder.decode(jpeg, options: options)
            #expect(photo.image.width == decodedWidth, "\(width) pixels wide")
            #expect(photo.width == width)
        }
        #expect(DecodeOptions(workingSize: 4096).jpegLongSide == 3968)  // stickers of 2048 pixels
    }

    @Test func largePNGIsReducedToAboutTheWorkingSize() throws {
        let png = try PNGCodec.encode(Fixtures.quadrants(width: 1000, height: 600))
        let photo = try PhotoDecoder.decode(png, options: DecodeOptions(workingSize: 300))
        #expect(photo.width == 1000 && photo.height == 600)
        #expect(photo.image.width == 334 && photo.image.height == 200)  // divided by 3
        #expect(Fixtures.matches(photo.image.pixel(x: 10, y: 10), Fixtures.red, tolerance: 0))
    }

    @Test func alphaSurvivesThePNGPath() throws {
        let png = try PNGCodec.encode(PNGCodecTests.translucent)
        let photo = try PhotoDecoder.decode(png, options: DecodeOptions())
        #expect(photo.image == PNGCodecTests.translucent)
        #expect(photo.exif == nil)
    }

    @Test func errorsSayWhatWentWrong() throws {
        let options = DecodeOptions()
        #expect(throws: ProcessingError.truncated("empty file")) { try PhotoDecoder.decode([], options: options) }
        #expect(throws: ProcessingError.unsupportedFormat("unknown (not an image)")) {
            try PhotoDecoder.decode(Array("just some text".utf8), options: options)
        }
        #expect(throws: ProcessingError.unsupportedFormat("GIF")) {
            try PhotoDecoder.decode(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20), options: options)
        }
        #expect(throws: ProcessingError.unsupportedFormat("TIFF")) {
            try PhotoDecoder.decode([0x49, 0x49, 0x2A, 0x00] + [UInt8](repeating: 0, count: 20), options: options)
        }
        let jpeg = try JPEGCodec.encode(Fixtures.noise(width: 128, height: 128))
        #expect(throws: ProcessingError.truncated("Premature end of JPEG file")) {
            try PhotoDecoder.decode(Array(jpeg.prefix(jpeg.count / 2)), options: options)
        }
        #expect(throws: ProcessingError.tooLarge(width: 20_000, height: 20_000, limit: DecodeOptions.defaultMaxPixels)) {
            try PhotoDecoder.decode(Fixtures.jpeg(jpeg, patchedToWidth: 20_000, height: 20_000), options: options)
        }
        #expect(throws: ProcessingError.tooLarge(width: 128, height: 128, limit: 10_000)) {
            try PhotoDecoder.decode(jpeg, options: DecodeOptions(maxPixels: 10_000))
        }
        let png = Fixtures.png(try PNGCodec.encode(PNGCodecTests.translucent), patchedToWidth: 50_000, height: 50_000)
        #expect(throws: ProcessingError.tooLarge(width: 50_000, height: 50_000, limit: DecodeOptions.defaultMaxPixels)) {
            try PhotoDecoder.decode(png, options: options)
        }
    }
}
