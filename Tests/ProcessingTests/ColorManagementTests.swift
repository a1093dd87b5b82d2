import Testing
@testable import Processing
import SampleImages

/// Embedded colour profiles: each container's way of carrying one, converted to sRGB with lcms2.
/// The photos are the quadrant scene re-expressed in a wide-gamut space and tagged with it, so
/// after conversion they must look like the untagged sRGB original.
@Suite(.timeLimit(.minutes(15))) struct ColorManagementTests {
    static let upright = PhotoDecoderTests.upright

    static func inSpace(_ space: ColorConverter.RGBSpace, _ image: RGBAImage = upright) throws -> RGBAImage {
        try #require(ColorConverter.fromSRGB(image, to: space))
    }

    static func profile(_ space: ColorConverter.RGBSpace) throws -> [UInt8] {
        try #require(space.iccProfile)
    }

    /// A JPEG with `profile` split over APP2 `ICC_PROFILE` segments of at most `chunk` bytes.
    static func jpeg(_ image: RGBAImage, profile: [UInt8], chunk: Int = 65_000) throws -> [UInt8] {
        let jpeg = try JPEGCodec.encode(image, quality: 95)
        let pieces = stride(from: 0, to: profile.count, by: chunk).map { Array(profile[$0 ..< min($0 + chunk, profile.count)]) }
        var segments: [UInt8] = []
        for (index, piece) in pieces.enumerated() {
            let payload = Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(pieces.count)] + piece
            let length = payload.count + 2
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        return [0xFF, 0xD8] + segments + jpeg.dropFirst(2)
    }

    static func expectSRGBOriginal(_ photo: DecodedPhoto, tolerance: Int = 24, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(photo.warnings.isEmpty, "\(photo.warnings)", sourceLocation: sourceLocation)
        PhotoDecoderTests.expectUpright(photo.image, sourceLocation: sourceLocation)
    }

    @Test(arguments: ColorConverter.RGBSpace.allCases)
    func taggedJpegIsConvertedToSRGB(space: ColorConverter.RGBSpace) throws {
        let wide = try Self.inSpace(space)
        #expect(!Fixtures.matches(wide.pixel(x: 8, y: 8), Fixtures.red, tolerance: 6), "the tagged pixels differ from sRGB's")
        let photo = try PhotoDecoder.decode(try Self.jpeg(wide, profile: Self.profile(space)), options: DecodeOptions())
        Self.expectSRGBOriginal(photo)
    }

    @Test func aProfileSplitOverSeveralApp2SegmentsIsJoined() throws {
        let wide = try Self.inSpace(.displayP3)
        let profile = try Self.profile(.displayP3)
        let photo = try PhotoDecoder.decode(try Self.jpeg(wide, profile: profile, chunk: profile.count / 3 + 1), options: DecodeOptions())
        Self.expectSRGBOriginal(photo)
    }

    @Test func taggedPngIsConvertedToSRGB() throws {
        let png = try PNGCodec.pngByInserting(iccProfile: Self.profile(.adobeRGB), into: PNGCodec.encode(Self.inSpace(.adobeRGB)))
        #expect(PNGCodec.iccProfile(png) == (try Self.profile(.adobeRGB)))
        Self.expectSRGBOriginal(try PhotoDecoder.decode(png, options: DecodeOptions()))
    }

    @Test func taggedWebpIsConvertedToSRGB() throws {
        let plain = try WebPCodec.encode(Self.inSpace(.displayP3), mode: .lossy(quality: 95))
        let webp = try #require(WebPChunks.adding(iccProfile: Self.profile(.displayP3), exif: nil, to: plain))
        Self.expectSRGBOriginal(try PhotoDecoder.decode(webp, options: DecodeOptions()))
    }

    @Test(.enabled(if: PhoneFormatTests.canEncodeHEVC, "libheif has no HEVC encoder here"))
    func heicWithAnIccProfileIsConvertedToSRGB() throws {
        let file = try HEIFCodec.encode(Self.inSpace(.displayP3), options: .init(quality: 95, iccProfile: Self.profile(.displayP3)))
        Self.expectSRGBOriginal(try PhotoDecoder.decode(file, options: DecodeOptions()))
    }

    @Test(.enabled(if: PhoneFormatTests.canEncodeHEVC, "libheif has no HEVC encoder here"),
          arguments: [(ColorConverter.RGBSpace.displayP3, 12, 13), (.bt2020, 9, 14)])
    func heicWithAnNclxDescriptionIsConvertedToSRGB(space: ColorConverter.RGBSpace, primaries: Int, transfer: Int) throws {
        let file = try HEIFCodec.encode(Self.inSpace(space), options: .init(quality: 95, nclx: (primaries, transfer)))
        Self.expectSRGBOriginal(try PhotoDecoder.decode(file, options: DecodeOptions()))
    }

    @Test func aBrokenProfileIsIgnoredWithAWarning() throws {
        var profile = try Self.profile(.displayP3)
        for index in 128..<profile.count { profile[index] = 0xEE }  // the header survives, the tags do not
        let photo = try PhotoDecoder.decode(try Self.jpeg(Self.upright, profile: profile), options: DecodeOptions())
        #expect(photo.warnings.count == 1)
        #expect(photo.warnings.first?.contains("colour profile") == true)
        PhotoDecoderTests.expectUpright(photo.image)
        let short = try PhotoDecoder.decode(try Self.jpeg(Self.upright, profile: [1, 2, 3]), options: DecodeOptions())
        #expect(short.warnings.count == 1)
    }

    @Test func anSRGBProfileOrDescriptionChangesNothing() throws {
        let converted = ColorConverter.toSRGB(Self.upright, from: .icc(try #require(ColorConverter.sRGBProfile)))
        #expect(converted.warning == nil)
        #expect(converted.image == Self.upright)
        #expect(ColorConverter.toSRGB(Self.upright, from: .nclx(primaries: 1, transfer: 13)).image == Self.upright)
    }

    @Test func oneTransformIsBuiltPerDistinctProfile() throws {
        let profile = try Self.profile(.adobeRGB)
        _ = ColorConverter.toSRGB(Self.upright, from: .icc(profile))
        let count = ColorConverter.cachedPlanCount
        for _ in 0..<5 { _ = ColorConverter.toSRGB(Self.upright, from: .icc(profile)) }
        #expect(ColorConverter.cachedPlanCount <= count, "the same profile reuses its transform")
    }

    /// The palette of a wide-gamut tagged photo is the palette of its untagged sRGB twin
    /// (share-weighted ΔE76 in Lab well under 8).
    @Test(arguments: ColorConverter.RGBSpace.allCases)
    func aTaggedPhotosPaletteIsItsSRGBTwins(space: ColorConverter.RGBSpace) throws {
        let scene = Self.upright
        let twin = try PhotoDecoder.decode(try JPEGCodec.encode(scene, quality: 95), options: DecodeOptions())
        let tagged = try PhotoDecoder.decode(try Self.jpeg(Self.inSpace(space, scene), profile: Self.profile(space)), options: DecodeOptions())
        let distance = PaletteDistance.shareWeightedDeltaE76(
            PaletteExtractor.palette(of: twin.image, colors: 5), PaletteExtractor.palette(of: tagged.image, colors: 5))
        #expect(distance <= 8, "ΔE76 \(distance)")
    }
}
