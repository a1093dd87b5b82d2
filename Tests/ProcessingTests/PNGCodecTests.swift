import Testing
@testable import Processing

@Suite(.timeLimit(.minutes(15)))
struct PNGCodecTests {
    /// Every alpha level, with colours that change independently of it (including colour under alpha 0).
    static let translucent: RGBAImage = {
        var pixels: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<16 {
                let alpha = UInt8(y * 16 + x)
                pixels += [UInt8(x * 16), UInt8(y * 16), UInt8(255 - x * 8), alpha]
            }
        }
        return RGBAImage(width: 16, height: 16, pixels: pixels)
    }()

    @Test func roundTripKeepsEveryPixelAndAlpha() throws {
        let png = try PNGCodec.encode(Self.translucent)
        #expect(ImageFormat.detect(png) == .png)
        #expect(try PNGCodec.readHeader(png) == (16, 16))
        #expect(try PNGCodec.decode(png, maxPixels: 256) == Self.translucent)
    }

    @Test func largeNoisyImageRoundTrips() throws {
        // Noise does not compress: the first output buffer guess must be big enough or grown.
        let image = Fixtures.noise(width: 300, height: 200)
        #expect(try PNGCodec.decode(PNGCodec.encode(image), maxPixels: 60_000) == image)
    }

    /// Noise in every channel, alpha included, with every fifth pixel fully transparent but
    /// still coloured: an encoder that drops colour under alpha 0 would lose it.
    static func translucentNoise(width: Int, height: Int, seed: UInt64 = 0xA1FA) -> RGBAImage {
        var state = seed
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in pixels.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            pixels[index] = UInt8(truncatingIfNeeded: state >> 33)
            if index % 4 == 3, (index / 4) % 5 == 0 { pixels[index] = 0 }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// A smooth two-way gradient with grain, roughly like a scaled photo: filters and zlib
    /// settings make a difference on it, unlike on pure noise or flat colour.
    static func grainyGradient(width: Int, height: Int) -> RGBAImage {
        var state: UInt64 = 0x6A1
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                for channel in 0..<3 {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let grain = Int(state >> 61) - 4  // -4...3
                    let base = (x * (channel + 1) * 255 / width + y * (3 - channel) * 255 / height) / 3
                    pixels[offset + channel] = UInt8(clamping: base + grain)
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    @Test(arguments: [PNGCompression.fast, .small])
    func roundTripKeepsEveryPixelAtAnySize(compression: PNGCompression) throws {
        let sizes = [(1, 1), (1, 7), (7, 1), (1, 300), (300, 1), (3, 5), (17, 9), (33, 65), (127, 31)]
        for (width, height) in sizes {
            let image = Self.translucentNoise(width: width, height: height, seed: UInt64(width * 1000 + height))
            let png = try PNGCodec.encode(image, compression: compression)
            #expect(try PNGCodec.readHeader(png) == (width, height), "\(width)x\(height)")
            #expect(try PNGCodec.decode(png, maxPixels: width * height) == image, "\(width)x\(height) \(compression)")
        }
        let gradient = Self.grainyGradient(width: 101, height: 57)
        #expect(try PNGCodec.decode(PNGCodec.encode(gradient, compression: compression), maxPixels: 101 * 57) == gradient)
        #expect(try PNGCodec.decode(PNGCodec.encode(Self.translucent, compression: compression), maxPixels: 256) == Self.translucent)
    }

    @Test func defaultIsFastAndTaggedSRGB() throws {
        let image = Self.grainyGradient(width: 40, height: 30)
        let png = try PNGCodec.encode(image)
        #expect(png == (try PNGCodec.encode(image, compression: .fast)))
        // IHDR (8-bit RGBA, not interlaced), then sRGB, as the simplified API wrote it.
        #expect(Array(png[24..<29]) == [8, 6, 0, 0, 0])
        #expect(png[37..<41].elementsEqual("sRGB".utf8))
    }

    /// Rows cut from one strip of random pixels at varying offsets: the repeats are tens of bytes
    /// back, which Z_RLE (one byte back) cannot use and level 9's match search finds.
    static func shiftedTexture(width: Int, height: Int) -> RGBAImage {
        let strip = translucentNoise(width: 37, height: 1).pixels
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            let shift = (y * y * 7) % 37
            for x in 0..<width {
                let offset = ((x + shift) % 37) * 4
                pixels += strip[offset ..< offset + 4]
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    @Test func smallIsNotLargerThanFast() throws {
        let images = [
            Self.grainyGradient(width: 256, height: 192), Self.translucentNoise(width: 128, height: 96),
            Self.shiftedTexture(width: 200, height: 150), Self.translucent,
        ]
        for image in images {
            let fast = try PNGCodec.encode(image, compression: .fast)
            let small = try PNGCodec.encode(image, compression: .small)
            #expect(small.count <= fast.count, "\(image.width)x\(image.height): small \(small.count) bytes, fast \(fast.count)")
            #expect(try PNGCodec.decode(small, maxPixels: image.width * image.height) == image)
        }
        // Where level 9's search pays, .small is far smaller, not just no larger.
        let texture = Self.shiftedTexture(width: 200, height: 150)
        let fast = try PNGCodec.encode(texture, compression: .fast)
        let small = try PNGCodec.encode(texture, compression: .small)
        #expect(small.count * 4 < fast.count, "small \(small.count) bytes, fast \(fast.count)")
    }

    @Test func absurdSizesAreErrorsNotCrashes() throws {
        // Past libpng's width limit (1,000,000): libpng itself raises the error, which the shim
        // catches with its own setjmp and returns as a message.
        let wide = RGBAImage(width: 1_000_001, height: 1, red: 1, green: 2, blue: 3)
        do {
            _ = try PNGCodec.encode(wide)
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == "encoding-failed")
            #expect(error == .encodingFailed("Invalid IHDR data (Image width exceeds user limit in IHDR)"))
        }
        // Sizes no RGBAImage could hold, refused before libpng sees them.
        let pixels: [UInt8] = [1, 2, 3, 4]
        try pixels.withUnsafeBufferPointer { buffer throws in
            for (width, height) in [(Int.max, 1), (1, 1 << 32), (-1, 1), (0, 1), (1, 0), (Int(UInt32.max), Int(UInt32.max)),
                                    (Int(Int32.max), Int(Int32.max)), (70_000, 70_000), (2, 1)] {
                #expect(throws: ProcessingError.self, "\(width)x\(height)") {
                    try PNGCodec.encode(rgba: buffer, width: width, height: height, compression: .fast)
                }
            }
            #expect(throws: ProcessingError.encodingFailed("70000x70000 RGBA needs 19600000000 bytes, got 4")) {
                try PNGCodec.encode(rgba: buffer, width: 70_000, height: 70_000, compression: .fast)
            }
            #expect(try PNGCodec.encode(rgba: buffer, width: 1, height: 1, compression: .fast).count > 0)
        }
        #expect(throws: ProcessingError.self) {
            try PNGCodec.encode(rgba: UnsafeBufferPointer(start: nil, count: 0), width: 1, height: 1, compression: .fast)
        }
    }

    @Test func overTheLimitIsTooLarge() throws {
        let png = try PNGCodec.encode(Self.translucent)
        #expect(throws: ProcessingError.tooLarge(width: 16, height: 16, limit: 255)) {
            try PNGCodec.decode(png, maxPixels: 255)
        }
    }

    @Test func patchedHugeHeaderIsTooLargeWithoutAllocating() throws {
        let png = Fixtures.png(try PNGCodec.encode(Self.translucent), patchedToWidth: 100_000, height: 100_000)
        #expect(throws: ProcessingError.tooLarge(width: 100_000, height: 100_000, limit: DecodeOptions.defaultMaxPixels)) {
            try PNGCodec.decode(png, maxPixels: DecodeOptions.defaultMaxPixels)
        }
        // Within the limit, libpng accepts the header (the CRC is right) but the data is short.
        let wide = Fixtures.png(try PNGCodec.encode(Self.translucent), patchedToWidth: 2000, height: 16)
        #expect(try PNGCodec.readHeader(wide) == (2000, 16))
        #expect(throws: ProcessingError.self) { try PNGCodec.decode(wide, maxPixels: DecodeOptions.defaultMaxPixels) }
    }

    @Test func truncatedIsTruncated() throws {
        let png = try PNGCodec.encode(Fixtures.noise(width: 64, height: 64))
        // Even cut inside IEND, after all pixel data (which libpng accepts), the file is incomplete.
        for length in [png.count - 1, png.count - 20, png.count / 2, 40, 20, 9] {
            do {
                _ = try PNGCodec.decode(Array(png.prefix(length)), maxPixels: 10_000)
                Issue.record("expected a failure at \(length) bytes")
            } catch {
                #expect(error.code == "truncated", "\(length) bytes: \(error)")
            }
        }
    }

    @Test func chunkClaimingMoreThanTheFileIsRefusedBeforeLibpng() throws {
        // Like libpng's huge_tEXt_chunk.png: 57 bytes whose tEXt chunk claims 1 GB, which libpng
        // would allocate.
        var png = Array(try PNGCodec.encode(Self.translucent).prefix(33))
        png += Fixtures.bigEndian(0x3FFF_FFFF) + Array("tEXt".utf8) + [0, 0, 0, 0]
        #expect(throws: ProcessingError.truncated("the tEXt chunk needs 1073741827 bytes, the data ends after 4")) {
            try PNGCodec.decode(png, maxPixels: 1_000)
        }
    }

    @Test func badChecksumIsCorrupt() throws {
        var png = try PNGCodec.encode(Self.translucent)
        png[19] ^= 0x01  // IHDR width 16 → 17, CRC unchanged
        do {
            _ = try PNGCodec.decode(png, maxPixels: 1_000_000)
            Issue.record("expected a failure")
        } catch {
            #expect(error == .corruptImage("IHDR: CRC error"))
        }
    }

    @Test func exifChunkRoundTrip() throws {
        let png = try PNGCodec.encode(Self.translucent)
        #expect(PNGCodec.exifChunk(png) == nil)
        let block = try ExifWriter.exifBlock(ExifMetadata(make: "Maker", orientation: 3))
        let tagged = try PNGCodec.pngByInserting(exifChunk: block, into: png)
        // The chunk carries the TIFF structure without the JPEG "Exif\0\0" prefix.
        #expect(PNGCodec.exifChunk(tagged) == Array(block.dropFirst(6)))
        #expect(try PNGCodec.decode(tagged, maxPixels: 256) == Self.translucent)
        let chunk = try #require(PNGCodec.exifChunk(tagged))
        let exif = try #require(ExifReader.read(tiffBlock: chunk))
        #expect(exif.make == "Maker" && exif.orientation == 3)
        // Inserting again replaces the chunk rather than adding a second one.
        let retagged = try PNGCodec.pngByInserting(exifChunk: ExifWriter.exifBlock(ExifMetadata(orientation: 8)), into: tagged)
        #expect(ExifReader.read(tiffBlock: try #require(PNGCodec.exifChunk(retagged)))?.orientation == 8)
        #expect(retagged.count == tagged.count - block.count + (try ExifWriter.exifBlock(ExifMetadata(orientation: 8))).count)
    }

    @Test func exifChunkWalkSurvivesBrokenLengths() throws {
        var png = try PNGCodec.encode(Self.translucent)
        png.replaceSubrange(33..<37, with: [0xFF, 0xFF, 0xFF, 0xF0])  // the chunk after IHDR claims 4 GB
        #expect(PNGCodec.exifChunk(png) == nil)
        #expect(PNGCodec.exifChunk(Array(png.prefix(10))) == nil)
        #expect(PNGCodec.exifChunk([]) == nil)
    }
}
