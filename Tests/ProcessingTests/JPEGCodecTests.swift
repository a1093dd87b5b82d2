import Testing
@testable import Processing

@Suite(.timeLimit(.minutes(15)))
struct JPEGCodecTests {
    @Test func encodeThenDecodeKeepsSizeAndColours() throws {
        let image = Fixtures.quadrants(width: 64, height: 48)
        let jpeg = try JPEGCodec.encode(image, quality: 95)
        #expect(ImageFormat.detect(jpeg) == .jpeg)
        let header = try JPEGCodec.readHeader(jpeg)
        #expect(header.width == 64 && header.height == 48)
        let decoded = try JPEGCodec.decode(jpeg, maxPixels: 10_000, minimumLongSide: 64)
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(Fixtures.matches(decoded.pixel(x: 4, y: 4), Fixtures.red))
        #expect(Fixtures.matches(decoded.pixel(x: 60, y: 4), Fixtures.green))
        #expect(Fixtures.matches(decoded.pixel(x: 4, y: 44), Fixtures.blue))
        #expect(Fixtures.matches(decoded.pixel(x: 60, y: 44), Fixtures.yellow))
        #expect(!decoded.hasTransparency)
    }

    @Test func decodesAtTheSmallestScaleThatCoversTheWorkingSize() throws {
        let jpeg = try JPEGCodec.encode(RGBAImage(width: 4000, height: 3000, red: 90, green: 120, blue: 150))
        // 1/4 gives 1000 < 1024; 3/8 gives 1500, the smallest of TurboJPEG's n/8 factors that covers 1024.
        let decoded = try JPEGCodec.decode(jpeg, maxPixels: DecodeOptions.defaultMaxPixels, minimumLongSide: 1024)
        #expect(decoded.width == 1500 && decoded.height == 1125)
        let exact = try JPEGCodec.decode(jpeg, maxPixels: DecodeOptions.defaultMaxPixels, minimumLongSide: 1000)
        #expect(exact.width == 1000 && exact.height == 750)  // 1/4 covers 1000 exactly
        let small = try JPEGCodec.decode(jpeg, maxPixels: DecodeOptions.defaultMaxPixels, minimumLongSide: 400)
        #expect(small.width == 500 && small.height == 375)  // 1/8
        let full = try JPEGCodec.decode(jpeg, maxPixels: DecodeOptions.defaultMaxPixels, minimumLongSide: 5000)
        #expect(full.width == 4000 && full.height == 3000)  // never enlarged
    }

    @Test func truncatedScanIsTruncated() throws {
        let jpeg = try JPEGCodec.encode(Fixtures.noise(width: 256, height: 256))
        #expect(throws: ProcessingError.truncated("Premature end of JPEG file")) {
            try JPEGCodec.decode(Array(jpeg.prefix(jpeg.count / 2)), maxPixels: 1_000_000, minimumLongSide: 256)
        }
    }

    @Test(arguments: [2, 3, 20, 100, 300])
    func dataEndingInTheHeadersIsTruncated(length: Int) throws {
        let jpeg = try JPEGCodec.encode(Fixtures.noise(width: 32, height: 32))
        #expect(throws: ProcessingError.truncated("Premature end of JPEG file (inside the headers)")) {
            try JPEGCodec.decode(Array(jpeg.prefix(length)), maxPixels: 1_000_000, minimumLongSide: 32)
        }
    }

    @Test func garbageAfterStartOfImageIsCorrupt() {
        // 0x93 is not a JPEG marker.
        let garbage: [UInt8] = [0xFF, 0xD8, 0xFF, 0x93] + (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        #expect(throws: ProcessingError.corruptImage("Unsupported marker type 0x93")) {
            try JPEGCodec.decode(garbage, maxPixels: 1_000_000, minimumLongSide: 64)
        }
    }

    @Test func recoverableWarningsInACompleteFileAreTolerated() throws {
        let image = Fixtures.quadrants(width: 64, height: 48)
        let jpeg = try JPEGCodec.encode(image, quality: 95)
        let clean = try JPEGCodec.decode(jpeg, maxPixels: 10_000, minimumLongSide: 64)
        // Junk between two header segments: libjpeg warns "5 extraneous bytes before marker 0xdb",
        // which stops the strict pass; viewers show such files, and so do we.
        let table = try #require(JPEGSegments(jpeg).segments.first { $0.marker == 0xDB })
        var junk = jpeg
        junk.insert(contentsOf: [1, 2, 3, 4, 5], at: table.start)
        #expect(try JPEGCodec.decode(junk, maxPixels: 10_000, minimumLongSide: 64) == clean)
        // The same file cut short is still truncated: the tolerant pass would grey-fill it.
        #expect(throws: ProcessingError.truncated("Premature end of JPEG file")) {
            try JPEGCodec.decode(Array(junk.dropLast(40)), maxPixels: 10_000, minimumLongSide: 64)
        }
    }

    @Test func markerInsideTheScanDataOfACompleteFileDecodes() throws {
        var jpeg = try JPEGCodec.encode(Fixtures.noise(width: 128, height: 128))
        let scan = try #require(JPEGSegments(jpeg).segments.last { $0.marker == JPEGSegments.startOfScan })
        jpeg[scan.end + 200] = 0xFF
        jpeg[scan.end + 201] = 0xC4
        let decoded = try JPEGCodec.decode(jpeg, maxPixels: 1_000_000, minimumLongSide: 128)
        #expect(decoded.width == 128 && decoded.height == 128)
    }

    @Test func fatalErrorsAreCorrupt() throws {
        var jpeg = try JPEGCodec.encode(Fixtures.quadrants(width: 32, height: 32))
        // A quantisation table with an invalid table number (0x0F): a fatal libjpeg error.
        let table = try #require(JPEGSegments(jpeg).segments.first { $0.marker == 0xDB })
        jpeg[table.payload.lowerBound] = 0x0F
        #expect(throws: ProcessingError.self) { try JPEGCodec.decode(jpeg, maxPixels: 10_000, minimumLongSide: 32) }
        do {
            _ = try JPEGCodec.decode(jpeg, maxPixels: 10_000, minimumLongSide: 32)
        } catch {
            #expect(error.code == "corrupt-image", "\(error)")
        }
    }

    @Test func hugeDimensionsAreRefusedBeforeDecoding() throws {
        let jpeg = try JPEGCodec.encode(Fixtures.quadrants(width: 16, height: 16))
        let patched = Fixtures.jpeg(jpeg, patchedToWidth: 20_000, height: 20_000)
        #expect(try JPEGCodec.readHeader(patched) == (20_000, 20_000))
        #expect(throws: ProcessingError.tooLarge(width: 20_000, height: 20_000, limit: DecodeOptions.defaultMaxPixels)) {
            try JPEGCodec.decode(patched, maxPixels: DecodeOptions.defaultMaxPixels, minimumLongSide: 1024)
        }
    }

    @Test func emptyIsTruncated() {
        #expect(throws: ProcessingError.truncated("empty file")) { try JPEGCodec.readHeader([]) }
    }
}
