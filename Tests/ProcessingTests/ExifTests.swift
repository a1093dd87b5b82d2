import Testing
@testable import Processing

@Suite(.timeLimit(.minutes(15)))
struct ExifTests {
    static let full = ExifMetadata(
        make: "Canon", model: "Canon EOS R5", lensModel: "RF24-105mm F4 L IS USM",
        takenAt: "2024-05-01T12:34:56+02:00", exposureTime: 1.0 / 250, fNumber: 4.0, iso: 800, focalLength: 47.5,
        orientation: 6, gpsLatitude: -33.856_784, gpsLongitude: -70.648_277, gpsAltitude: -12.5)

    static func jpeg() throws -> [UInt8] {
        try JPEGCodec.encode(Fixtures.quadrants(width: 32, height: 16))
    }

    /// The fields, without `tags` (which the writer does not take as input).
    static func fields(_ exif: ExifMetadata?) -> ExifMetadata? {
        exif.map { var copy = $0; copy.tags = [:]; return copy }
    }

    @Test(arguments: [ExifWriter.ByteOrder.intel, .motorola])
    func roundTripGivesBackEveryField(byteOrder: ExifWriter.ByteOrder) throws {
        let jpeg = try ExifWriter.jpegByInserting(Self.full, into: Self.jpeg(), byteOrder: byteOrder)
        let read = try #require(ExifReader.read(fromJPEG: jpeg))
        #expect(Self.fields(read) == Self.full)
        #expect(read.tags["0.Make"] == "Canon")
        #expect(read.tags["0.Model"] == "Canon EOS R5")
        #expect(read.tags["EXIF.OffsetTimeOriginal"] == "+02:00")
        #expect(read.tags["EXIF.DateTimeOriginal"] == "2024:05:01 12:34:56")
        #expect(read.tags["EXIF.ISOSpeedRatings"] == "800")
        #expect(read.tags["EXIF.LensModel"] == "RF24-105mm F4 L IS USM")
        #expect(read.tags["GPS.GPSLatitudeRef"] == "S")
        #expect(read.tags["GPS.GPSLongitudeRef"] == "W")
        #expect(read.tags["GPS.GPSAltitudeRef"] != nil)
        // libexif adds nothing of its own: exactly the tags written.
        #expect(Set(read.tags.keys) == [
            "0.Make", "0.Model", "0.Orientation",
            "EXIF.ExposureTime", "EXIF.FNumber", "EXIF.ISOSpeedRatings", "EXIF.ExifVersion", "EXIF.DateTimeOriginal",
            "EXIF.OffsetTimeOriginal", "EXIF.FocalLength", "EXIF.LensModel",
            "GPS.GPSVersionID", "GPS.GPSLatitudeRef", "GPS.GPSLatitude", "GPS.GPSLongitudeRef", "GPS.GPSLongitude",
            "GPS.GPSAltitudeRef", "GPS.GPSAltitude",
        ])
        // The pixels are untouched.
        #expect(try JPEGCodec.decode(jpeg, maxPixels: 1000, minimumLongSide: 32) == JPEGCodec.decode(Self.jpeg(), maxPixels: 1000, minimumLongSide: 32))
    }

    @Test(arguments: [
        ExifMetadata(make: "NIKON CORPORATION", model: "NIKON D2H", takenAt: "2005-12-31T23:59:59",
                     exposureTime: 1.0 / 3, fNumber: 2.8, iso: 200, focalLength: 18, orientation: 1,
                     gpsLatitude: 39.904_2, gpsLongitude: 116.407_4, gpsAltitude: 43.7),
        ExifMetadata(exposureTime: 30, gpsLatitude: 0, gpsLongitude: 180, gpsAltitude: 0),
        ExifMetadata(takenAt: "2020-02-29T00:00:00-09:30", iso: 102_400, gpsLatitude: 89.999_999, gpsLongitude: -0.000_1),
        ExifMetadata(model: "Ünïcödé 📷"),
    ])
    func otherValuesRoundTrip(exif: ExifMetadata) throws {
        let read = ExifReader.read(fromJPEG: try ExifWriter.jpegByInserting(exif, into: Self.jpeg()))
        #expect(Self.fields(read) == exif)
    }

    @Test func jpegWithoutExifHasNone() throws {
        #expect(ExifReader.read(fromJPEG: try Self.jpeg()) == nil)
        #expect(ExifReader.read(fromJPEG: []) == nil)
        #expect(ExifReader.read(tiffBlock: []) == nil)
        #expect(ExifReader.read(tiffBlock: Array("not exif at all".utf8)) == nil)
    }

    @Test func insertingReplacesExistingExif() throws {
        let once = try ExifWriter.jpegByInserting(Self.full, into: Self.jpeg())
        let twice = try ExifWriter.jpegByInserting(ExifMetadata(make: "Other"), into: once)
        #expect(Self.fields(ExifReader.read(fromJPEG: twice)) == ExifMetadata(make: "Other"))
        #expect(JPEGSegments(twice).segments.filter { $0.marker == JPEGSegments.app1 }.count == 1)
    }

    @Test func writerRefusesWhatItCannotStore() throws {
        #expect(throws: ProcessingError.self) { try ExifWriter.exifBlock(ExifMetadata(takenAt: "yesterday")) }
        #expect(throws: ProcessingError.self) { try ExifWriter.exifBlock(ExifMetadata(orientation: 9)) }
        #expect(throws: ProcessingError.self) { try ExifWriter.exifBlock(ExifMetadata(gpsLatitude: 91)) }
        #expect(throws: ProcessingError.self) { try ExifWriter.exifBlock(ExifMetadata(gpsLongitude: -1e30)) }
        #expect(throws: ProcessingError.self) { try ExifWriter.exifBlock(ExifMetadata(gpsLatitude: .nan)) }
        #expect(throws: ProcessingError.self) { try ExifWriter.exifBlock(ExifMetadata(exposureTime: -1)) }
        #expect(throws: ProcessingError.self) { try ExifWriter.exifBlock(ExifMetadata(fNumber: .infinity)) }
        #expect(throws: ProcessingError.self) { try ExifWriter.exifBlock(ExifMetadata(iso: 0)) }
        #expect(throws: ProcessingError.self) { try ExifWriter.jpegByInserting(ExifMetadata(), into: [1, 2, 3]) }
        // More than a JPEG APP1 segment (or libexif, which reads at most 64 KiB) can hold.
        let tooLong = ExifMetadata(lensModel: String(repeating: "x", count: 70_000))
        #expect((try? ExifWriter.exifBlock(tooLong)) == nil)
        #expect((try? ExifWriter.jpegByInserting(tooLong, into: Self.jpeg())) == nil)
    }

    // MARK: - Hand-made EXIF

    @Test func dateFallsBackToDigitizedThenDateTime() {
        var tiff = TIFFBuilder()
        tiff.ifd0 = [.ascii(0x0132, "2001:02:03 04:05:06")]
        #expect(ExifReader.read(tiffBlock: tiff.tiff())?.takenAt == "2001-02-03T04:05:06")
        tiff.exif = [.ascii(0x9004, "2002:02:03 04:05:06"), .ascii(0x9012, "-05:00"), .ascii(0x9010, "+01:00")]
        #expect(ExifReader.read(tiffBlock: tiff.tiff())?.takenAt == "2002-02-03T04:05:06-05:00")
        tiff.exif.append(.ascii(0x9003, "0000:00:00 00:00:00"))  // garbage original: skipped
        #expect(ExifReader.read(tiffBlock: tiff.tiff())?.takenAt == "2002-02-03T04:05:06-05:00")
        tiff.exif.append(.ascii(0x9011, "garbage"))
        tiff.exif.removeAll { $0.tag == 0x9003 }
        tiff.exif.append(.ascii(0x9003, "2003:02:03 04:05:06"))  // valid original, invalid offset: no offset
        #expect(ExifReader.read(tiffBlock: tiff.tiff())?.takenAt == "2003-02-03T04:05:06")
    }

    @Test(arguments: [
        ("2023:02:28 23:59:59", "2023-02-28T23:59:59"),
        ("2024:02:29 00:00:00", "2024-02-29T00:00:00"),
        ("2023-06-01 12:00:00", "2023-06-01T12:00:00"),
        ("2023:02:29 10:00:00", nil),
        ("2023:13:01 10:00:00", nil),
        ("2023:12:01 24:00:00", nil),
        ("0000:00:00 00:00:00", nil),
        ("    :  :     :  :  ", nil),
        ("2023:12:01", nil),
        ("", nil),
    ] as [(String, String?)])
    func exifDatesAreValidated(exif: String, iso: String?) {
        #expect(ExifDate.iso8601(exif) == iso)
    }

    @Test func zeroDenominatorsAndBadValuesAreSkipped() {
        var tiff = TIFFBuilder()
        tiff.ifd0 = [.ascii(0x010F, "  Make With Spaces \0\0 "), .short(0x0112, 9)]
        tiff.exif = [
            .rationals(0x829A, [(1, 0)]),  // ExposureTime 1/0
            .rationals(0x829D, [(28, 10)]),  // FNumber 2.8
            .rationals(0x920A, [(0, 0)]),  // FocalLength 0/0
            TIFFBuilder.Entry(tag: 0x8827, format: .ascii, count: 2, value: [0x31, 0]),  // ISO with the wrong type
        ]
        let exif = ExifReader.read(tiffBlock: tiff.tiff())
        #expect(exif?.make == "Make With Spaces")
        #expect(exif?.orientation == nil)
        #expect(exif?.exposureTime == nil)
        #expect(exif?.fNumber == 2.8)
        #expect(exif?.focalLength == nil)
        #expect(exif?.iso == nil)
    }

    @Test func malformedExifInAPhotoIsNilOrPartialAndThePhotoStillDecodes() throws {
        let jpeg = try Self.jpeg()
        let prefix = ExifReader.exifPrefix
        var state: UInt64 = 42
        let random = (0..<2000).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        var valid = try ExifWriter.exifBlock(Self.full)
        let payloads: [[UInt8]] = [
            prefix + random,  // random bytes after the prefix
            prefix + [0x49, 0x49, 0x2A, 0x00] + random,  // a TIFF header, then an IFD offset from noise
            prefix + [0x49, 0x49],  // truncated TIFF header
            prefix + [0x4D, 0x4D, 0x00, 0x2A, 0xFF, 0xFF, 0xFF, 0xF0],  // IFD0 far past the end
            prefix,  // nothing after the prefix
            Array(valid.prefix(valid.count / 2)),  // cut in the middle of the values
        ]
        for payload in payloads {
            let photo = try PhotoDecoder.decode(Fixtures.jpeg(jpeg, withAPP1: payload), options: DecodeOptions())
            // The half block still holds IFD0, with orientation 6.
            let swapped = (5...8).contains(photo.exif?.orientation ?? 1)
            #expect(photo.width == (swapped ? 16 : 32) && photo.height == (swapped ? 32 : 16))
            #expect(photo.image.width == photo.width && photo.image.height == photo.height)
        }
        // Every prefix of a valid block, and single-byte corruptions of it, read without a crash.
        for length in stride(from: 0, through: valid.count, by: 3) {
            _ = ExifReader.read(tiffBlock: Array(valid.prefix(length)))
        }
        for index in stride(from: 6, to: valid.count, by: 2) {
            let saved = valid[index]
            valid[index] = saved ^ 0xA5
            _ = ExifReader.read(tiffBlock: valid)
            valid[index] = saved
        }
        // A block cut after IFD0's make keeps what it can.
        var partial = TIFFBuilder()
        partial.ifd0 = [.ascii(0x010F, "Partial")]
        partial.exif = [.ascii(0x9003, "2001:01:01 00:00:00")]
        let block = partial.tiff()
        let cut = ExifReader.read(tiffBlock: Array(block.prefix(block.count - 24)))
        #expect(cut?.make == "Partial")
        #expect(cut?.takenAt == nil)
    }
}
