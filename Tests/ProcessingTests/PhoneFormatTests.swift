import Testing
@testable import Processing

/// HEIF/HEIC, AVIF and WebP decoding: files made at test time with libheif's and libwebp's own
/// encoders from the quadrant scene, so every expectation is exact up to lossy coding.
@Suite(.timeLimit(.minutes(15))) struct PhoneFormatTests {
    static let upright = PhotoDecoderTests.upright

    /// Whether libheif here can encode (and so make test files) with each codec.
    static let canEncodeHEVC = (try? HEIFCodec.encode(upright, options: .init(codec: .hevc))) != nil
    static let canEncodeAV1 = (try? HEIFCodec.encode(upright, options: .init(codec: .av1))) != nil

    static func heif(
        _ image: RGBAImage = upright, codec: HEIFCodec.EncodeOptions.Codec = .hevc, exif: ExifMetadata? = nil, orientation: Int = 1,
        bitDepth: Int = 8, quality: Int = 95
    ) throws -> [UInt8] {
        let stored = orientation == 1 ? image : Orientation.apply([6: 8, 8: 6][orientation] ?? orientation, to: image)
        return try HEIFCodec.encode(stored, options: .init(
            codec: codec, quality: quality, exif: try exif.map { try ExifWriter.exifBlock($0) }, orientation: orientation, bitDepth: bitDepth))
    }

    static func webp(_ image: RGBAImage = upright, exif: ExifMetadata? = nil, lossless: Bool = false) throws -> [UInt8] {
        let stored = PhotoDecoderTests.stored(for: exif?.orientation ?? 1)
        let plain = try WebPCodec.encode(image == upright ? stored : image, mode: lossless ? .lossless : .lossy(quality: 95))
        guard let exif else { return plain }
        return try #require(WebPChunks.adding(iccProfile: nil, exif: Array(try ExifWriter.exifBlock(exif).dropFirst(6)), to: plain))
    }

    // MARK: - HEIF / AVIF

    @Test(.enabled(if: canEncodeHEVC, "libheif has no HEVC encoder here"), arguments: [1, 3, 6, 8])
    func heicIsUprightByItsContainerAndItsExifOrientationIsNotAppliedAgain(orientation: Int) throws {
        let file = try Self.heif(exif: ExifMetadata(make: "Apple", model: "iPhone 15", orientation: orientation), orientation: orientation)
        #expect(ImageFormat.detect(file) == .heif)
        let photo = try PhotoDecoder.decode(file, options: DecodeOptions())
        #expect(photo.format == .heif)
        #expect(photo.width == 64 && photo.height == 48, "upright size")
        #expect(photo.exif?.model == "iPhone 15")
        #expect(photo.exif?.orientation == orientation, "the tag is kept as a fact, not applied")
        PhotoDecoderTests.expectUpright(photo.image)
    }

    @Test(.enabled(if: canEncodeAV1, "libheif has no AV1 encoder here"), arguments: [1, 6])
    func avifDecodesUprightWithItsExif(orientation: Int) throws {
        let file = try Self.heif(codec: .av1, exif: ExifMetadata(make: "Google", model: "Pixel 8", orientation: orientation), orientation: orientation)
        #expect(ImageFormat.detect(file) == .avif)
        let photo = try PhotoDecoder.decode(file, options: DecodeOptions())
        #expect(photo.format == .avif)
        #expect(photo.width == 64 && photo.height == 48)
        #expect(photo.exif?.make == "Google")
        PhotoDecoderTests.expectUpright(photo.image)
    }

    @Test(.enabled(if: canEncodeHEVC, "libheif has no HEVC encoder here"))
    func heicKeepsItsAlpha() throws {
        var image = Self.upright
        for y in 0..<48 { for x in 0..<32 { image.pixels[(y * 64 + x) * 4 + 3] = 0 } }  // left half see-through
        let photo = try PhotoDecoder.decode(try Self.heif(image), options: DecodeOptions())
        #expect(photo.image.pixel(x: 8, y: 8).alpha < 16)
        #expect(photo.image.pixel(x: 56, y: 8).alpha > 240)
    }

    @Test(.enabled(if: canEncodeHEVC, "libheif has no HEVC encoder here"))
    func tenBitHeicIsReducedToEightBits() throws {
        let file = try Self.heif(bitDepth: 10)
        let photo = try PhotoDecoder.decode(file, options: DecodeOptions())
        PhotoDecoderTests.expectUpright(photo.image)
    }

    @Test(.enabled(if: canEncodeHEVC, "libheif has no HEVC encoder here"))
    func theprimaryImageOfAMultiImageFileIsDecoded() throws {
        let other = RGBAImage(width: 32, height: 32, red: 0, green: 0, blue: 0)
        var options = HEIFCodec.EncodeOptions(quality: 95)
        options.otherImages = [other, other]
        let file = try HEIFCodec.encode(Self.upright, options: options)
        let photo = try PhotoDecoder.decode(file, options: DecodeOptions())
        #expect(photo.width == 64 && photo.height == 48)
        PhotoDecoderTests.expectUpright(photo.image)
    }

    @Test(.enabled(if: canEncodeHEVC, "libheif has no HEVC encoder here"))
    func heicOverThePixelLimitIsRefusedFromItsHeader() throws {
        #expect(throws: ProcessingError.tooLarge(width: 64, height: 48, limit: 1000)) {
            try PhotoDecoder.decode(try Self.heif(), options: DecodeOptions(maxPixels: 1000))
        }
    }

    @Test(.enabled(if: canEncodeHEVC, "libheif has no HEVC encoder here"))
    func largeHeicIsShrunkToAboutTheWorkingSize() throws {
        let file = try HEIFCodec.encode(RGBAImage(width: 1024, height: 768, red: 200, green: 30, blue: 30), options: .init(quality: 50))
        let photo = try PhotoDecoder.decode(file, options: DecodeOptions(workingSize: 256))
        #expect(photo.width == 1024 && photo.height == 768)
        #expect(photo.image.width == 256 && photo.image.height == 192)
    }

    @Test(.enabled(if: canEncodeHEVC, "libheif has no HEVC encoder here"))
    func truncatedAndCorruptHeicGiveNamedFailures() throws {
        let file = try Self.heif(exif: ExifMetadata(make: "X"))
        for cut in [12, 40, file.count / 2, file.count - 1] {
            #expect(throws: ProcessingError.self) { try PhotoDecoder.decode(Array(file.prefix(cut)), options: DecodeOptions()) }
            do {
                _ = try PhotoDecoder.decode(Array(file.prefix(cut)), options: DecodeOptions())
            } catch {
                #expect(error.code == "truncated", "cut at \(cut): \(error)")
            }
        }
        // The same length, but the boxes after `ftyp` overwritten.
        var corrupt = file
        for index in 32..<min(200, corrupt.count) { corrupt[index] = 0x5A }
        do {
            _ = try PhotoDecoder.decode(corrupt, options: DecodeOptions())
            Issue.record("garbage decoded")
        } catch {
            #expect(["corrupt-image", "truncated"].contains(error.code), "\(error)")
        }
    }

    @Test func formatsAreToldApartByTheirBrands() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let brands = ([major, "\0\0\0\0"] + compatible).flatMap { Array($0.utf8) }
            let size = 8 + brands.count
            return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + brands
        }
        #expect(ImageFormat.detect(ftyp("heic", ["mif1", "heic"])) == .heif)
        #expect(ImageFormat.detect(ftyp("mif1", ["mif1", "heic"])) == .heif)
        #expect(ImageFormat.detect(ftyp("avif", ["mif1", "avif"])) == .avif)
        #expect(ImageFormat.detect(ftyp("mif1", ["miaf", "avif"])) == .avif)
        #expect(ImageFormat.detect(ftyp("isom", ["mp41"])) == nil, "a video is not a photo")
    }

    // MARK: - WebP

    @Test(arguments: [1, 3, 6, 8])
    func webpIsTurnedUprightByItsExifChunk(orientation: Int) throws {
        let file = try Self.webp(exif: ExifMetadata(make: "Google", model: "Pixel 8", orientation: orientation))
        let photo = try PhotoDecoder.decode(file, options: DecodeOptions())
        #expect(photo.format == .webp)
        #expect(photo.width == 64 && photo.height == 48)
        #expect(photo.exif?.model == "Pixel 8" && photo.exif?.orientation == orientation)
        PhotoDecoderTests.expectUpright(photo.image)
    }

    @Test func webpKeepsItsAlpha() throws {
        var image = Self.upright
        for y in 0..<48 { for x in 0..<32 { image.pixels[(y * 64 + x) * 4 + 3] = 0 } }
        let photo = try PhotoDecoder.decode(try Self.webp(image, lossless: true), options: DecodeOptions())
        #expect(photo.image.pixel(x: 8, y: 8).alpha == 0)
        #expect(photo.image.pixel(x: 56, y: 8) == (Fixtures.green.red, Fixtures.green.green, Fixtures.green.blue, 255))
    }

    @Test func largeWebpIsScaledWhileDecoding() throws {
        let file = try WebPCodec.encode(RGBAImage(width: 2000, height: 1000, red: 10, green: 200, blue: 30), mode: .lossy(quality: 50))
        let photo = try PhotoDecoder.decode(file, options: DecodeOptions(workingSize: 500))
        #expect(photo.width == 2000 && photo.height == 1000)
        #expect(photo.image.width == 500 && photo.image.height == 250)
        #expect(throws: ProcessingError.tooLarge(width: 2000, height: 1000, limit: 1_000_000)) {
            try PhotoDecoder.decode(file, options: DecodeOptions(maxPixels: 1_000_000))
        }
    }

    @Test func truncatedAndCorruptWebpGiveNamedFailures() throws {
        let file = try WebPCodec.encode(Fixtures.noise(width: 64, height: 48), mode: .lossy(quality: 90))
        for cut in [16, 20, 40, file.count / 2, file.count - 1] {  // from the first bytes that say WebP
            do {
                _ = try PhotoDecoder.decode(Array(file.prefix(cut)), options: DecodeOptions())
                Issue.record("a WebP cut at \(cut) of \(file.count) decoded")
            } catch {
                #expect(error.code == "truncated", "cut at \(cut): \(error)")
            }
        }
        var corrupt = file
        for index in 20..<40 { corrupt[index] ^= 0xA5 }
        do {
            _ = try PhotoDecoder.decode(corrupt, options: DecodeOptions())
            Issue.record("garbage decoded")
        } catch {
            #expect(error.code == "corrupt-image", "\(error)")
        }
    }
}
