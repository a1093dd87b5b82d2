import Testing
@testable import Processing

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
