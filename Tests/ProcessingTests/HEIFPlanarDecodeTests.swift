import Testing
@testable import Processing

/// The HEIF decode takes libheif's planar RGB and shrinks it while interleaving
/// (`PlanarRGBReducer`); it must give the pixels libheif's own RGBA conversion gives, shrunk by
/// `ImageResizer`, within rounding. Files are made with libheif's encoder at test time, at sizes a
/// whole factor of the working size so both paths average the same blocks.
@Suite(.timeLimit(.minutes(15))) struct HEIFPlanarDecodeTests {
    /// A 640 x 480 scene with edges, gradients and fine texture: what chroma and averaging get wrong shows.
    static let scene: RGBAImage = {
        var image = Fixtures.quadrants(width: 640, height: 480)
        let noise = Fixtures.noise(width: 640, height: 480)
        for index in stride(from: 0, to: image.pixels.count, by: 4) {
            let x = (index / 4) % 640
            for channel in 0..<3 {
                let mixed = (Int(image.pixels[index + channel]) * 3 + Int(noise.pixels[index + channel]) + x / 8) / 4
                image.pixels[index + channel] = UInt8(min(255, mixed))
            }
        }
        return image
    }()

    /// Largest difference of any channel of any pixel.
    static func largestDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        zip(a.pixels, b.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    static func expectBothPathsAgree(_ file: [UInt8], workingSize: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let planar = try HEIFCodec.decode(file, maxPixels: 1 << 26, workingSize: workingSize, path: .planar)
        let reference = try HEIFCodec.decode(file, maxPixels: 1 << 26, workingSize: workingSize, path: .interleaved)
        #expect(planar.image.width == reference.image.width && planar.image.height == reference.image.height, sourceLocation: sourceLocation)
        guard planar.image.width == reference.image.width, planar.image.height == reference.image.height else { return }
        #expect(largestDifference(planar.image, reference.image) <= 2, sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: PhoneFormatTests.canEncodeHEVC, "libheif has no HEVC encoder here"), arguments: [1, 3, 6, 8])
    func planarDecodeMatchesLibheifsRGBAForEveryOrientation(orientation: Int) throws {
        let stored = orientation == 1 ? Self.scene : Orientation.apply([6: 8, 8: 6][orientation] ?? orientation, to: Self.scene)
        let file = try HEIFCodec.encode(stored, options: .init(quality: 90, orientation: orientation))
        try Self.expectBothPathsAgree(file, workingSize: 160)  // shrunk by 4
        try Self.expectBothPathsAgree(file, workingSize: 1024)  // as decoded
        let photo = try HEIFCodec.decode(file, maxPixels: 1 << 26, workingSize: 160)
        #expect(photo.width == 640 && photo.height == 480, "upright size")
        #expect(photo.image.width == 160 && photo.image.height == 120, "upright working size")
        #expect(Fixtures.matches(photo.image.pixel(x: 20, y: 20), Fixtures.red, tolerance: 60), "red stays top left")
    }

    @Test(.enabled(if: PhoneFormatTests.canEncodeHEVC, "libheif has no HEVC encoder here"))
    func planarDecodeMatchesLibheifsRGBAWithAlpha() throws {
        var image = Self.scene
        for y in 0..<480 {
            for x in 0..<640 where x < 200 || (x / 16 + y / 16) % 3 == 0 {
                image.pixels[(y * 640 + x) * 4 + 3] = x < 200 ? 0 : UInt8(40 + (x + y) % 200)
            }
        }
        let file = try HEIFCodec.encode(image, options: .init(quality: 90))
        try Self.expectBothPathsAgree(file, workingSize: 160)
        let photo = try HEIFCodec.decode(file, maxPixels: 1 << 26, workingSize: 160)
        #expect(photo.image.pixel(x: 10, y: 60).alpha < 8, "the see-through band stays see-through")
    }

    @Test(.enabled(if: PhoneFormatTests.canEncodeHEVC, "libheif has no HEVC encoder here"))
    func planarDecodeMatchesLibheifsRGBAAtTenBits() throws {
        let file = try HEIFCodec.encode(Self.scene, options: .init(quality: 90, bitDepth: 10))
        #expect(HEIFCodec.lumaBitDepth(file) == 10, "the test file really is 10-bit")
        try Self.expectBothPathsAgree(file, workingSize: 160)
        try Self.expectBothPathsAgree(file, workingSize: 1024)
    }

    @Test func reducerAveragesWholeBlocksAndPartialEdges() {
        // 5 x 3 plane, factor 2: blocks of 2 x 2, a last column and row of partial blocks.
        let values: [UInt8] = [0, 2, 4, 6, 8,
                               10, 12, 14, 16, 18,
                               20, 22, 24, 26, 28]
        let image = values.withUnsafeBytes { bytes in
            let plane = PlanarRGBReducer.Plane(base: bytes.baseAddress!, stride: 5, bitDepth: 8)
            return PlanarRGBReducer.reduced(red: plane, green: plane, blue: plane, alpha: nil, width: 5, height: 3, factor: 2)
        }
        #expect(image.width == 3 && image.height == 2)
        #expect(image.pixels.enumerated().filter { $0.offset % 4 == 0 }.map(\.element) == [6, 10, 13, 21, 25, 28])
        #expect(image.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test func reducerScalesDeepSamplesToEightBits() {
        let values: [UInt16] = [1023, 1023, 0, 0, 512, 512, 4, 8]
        let image = values.withUnsafeBytes { bytes in
            let plane = PlanarRGBReducer.Plane(base: bytes.baseAddress!, stride: 8, bitDepth: 10)
            return PlanarRGBReducer.reduced(red: plane, green: plane, blue: plane, alpha: nil, width: 4, height: 2, factor: 1)
        }
        #expect(image.pixels.enumerated().filter { $0.offset % 4 == 0 }.map(\.element) == [255, 255, 0, 0, 128, 128, 1, 2])
    }
}
