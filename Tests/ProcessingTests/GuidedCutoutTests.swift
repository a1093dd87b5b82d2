import SampleImages
import Synchronization
import Testing
@testable import Processing

/// The cut-out steered by a box, include and exclude points, around predictors whose answer is
/// known: the geometry (what the network is shown, where its mask lands) and the region rules.
@Suite(.timeLimit(.minutes(15))) struct GuidedCutoutTests {
    /// A predictor that reads the subject off the colours it is shown (a probability a colour),
    /// on a grid a quarter of the input's size, and remembers every input.
    final class ColorKey: MaskPredictor {
        let probability: @Sendable (RGB) -> Float
        let inputs = Mutex<[RGBAImage]>([])

        init(_ probability: @escaping @Sendable (RGB) -> Float) {
            self.probability = probability
        }

        func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
            inputs.withLock { $0.append(image) }
            let width = max(1, image.width / 4), height = max(1, image.height / 4)
            var values = [Float](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    var sum: Float = 0
                    for dy in 0..<4 {
                        for dx in 0..<4 {
                            let pixel = image.pixel(x: min(image.width - 1, x * 4 + dx), y: min(image.height - 1, y * 4 + dy))
                            sum += probability(RGB(pixel.red, pixel.green, pixel.blue))
                        }
                    }
                    values[y * width + x] = sum / 16
                }
            }
            return LowResolutionMask(width: width, height: height, values: values)
        }
    }

    struct RGB: Equatable {
        var red, green, blue: UInt8
        init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) { (self.red, self.green, self.blue) = (red, green, blue) }
    }

    static let ground = RGB(90, 110, 90)
    static let subject = RGB(220, 60, 40)
    static let blue = RGB(40, 70, 210)
    static let weak = RGB(200, 200, 60)
    static let unseen = RGB(240, 240, 240)

    /// Subject red and blue are certain, yellow is a weak 0.3, anything else is ground.
    static func standardKey() -> ColorKey {
        ColorKey { colour in
            switch colour {
            case subject, blue: 1
            case weak: 0.3
            default: 0
            }
        }
    }

    /// A flat photo with filled rectangles (x, y, width, height, colour), painted in order.
    static func photo(width: Int = 400, height: Int = 300, _ rectangles: [(Int, Int, Int, Int, RGB)]) -> RGBAImage {
        var image = RGBAImage(width: width, height: height, red: ground.red, green: ground.green, blue: ground.blue)
        for (left, top, rectWidth, rectHeight, colour) in rectangles {
            for y in top..<(top + rectHeight) {
                for x in left..<(left + rectWidth) {
                    let offset = (y * width + x) * 4
                    image.pixels[offset] = colour.red
                    image.pixels[offset + 1] = colour.green
                    image.pixels[offset + 2] = colour.blue
                }
            }
        }
        return image
    }

    static func value(_ mask: [UInt8], width: Int = 400, _ x: Int, _ y: Int) -> UInt8 { mask[y * width + x] }

    @Test func theNetworkSeesTheBoxAndItsMargin() throws {
        let photo = Self.photo([(120, 90, 80, 60, Self.subject)])
        let key = Self.standardKey()
        let box = CutoutGuidance.Box(x: 100, y: 80, width: 120, height: 100)
        _ = try SubjectSegmenter(predictor: key).mask(photo, guidance: CutoutGuidance(box: box))
        // 15 % of 120 is 18, of 100 is 15: the crop is 82..<238 by 65..<195.
        #expect(key.inputs.withLock { $0 } == [photo.cropped(x: 82, y: 65, width: 156, height: 130)])
    }

    @Test func theMarginStopsAtTheFrame() throws {
        let photo = Self.photo([(10, 10, 60, 60, Self.subject)])
        let key = Self.standardKey()
        _ = try SubjectSegmenter(predictor: key).mask(photo, guidance: CutoutGuidance(box: .init(x: 5, y: 0, width: 100, height: 100)))
        #expect(key.inputs.withLock { $0 } == [photo.cropped(x: 0, y: 0, width: 120, height: 115)])
    }

    @Test func theBoxIsScaledToTheSourceAndTheWorkingImage() throws {
        // The upright photo is 1600 x 1200; the source (decoded) 800 x 600; the working image 400 x 300.
        let source = Self.photo(width: 800, height: 600, [(240, 200, 200, 160, Self.subject)])
        let working = ImageResizer.resized(source, width: 400, height: 300)
        let key = Self.standardKey()
        let box = CutoutGuidance.Box(x: 400, y: 300, width: 600, height: 500)
        let mask = try SubjectSegmenter(predictor: key).mask(
            working, predictingFrom: source, guidance: CutoutGuidance(box: box), uprightSize: (1600, 1200)
        )
        // Margins 90 and 75 in the upright photo: 310..<1090 by 225..<875, halved in the source.
        #expect(key.inputs.withLock { $0 } == [source.cropped(x: 155, y: 112, width: 390, height: 326)])
        // The subject (120..<220 by 100..<180 in the working image) lands where it is in the photo.
        #expect(Self.value(mask, 170, 140) == 255)
        #expect(Self.value(mask, 122, 102) >= 128 && Self.value(mask, 217, 177) >= 128)
        #expect(Self.value(mask, 116, 140) == 0 && Self.value(mask, 224, 140) == 0)
        #expect(Self.value(mask, 170, 96) == 0 && Self.value(mask, 170, 184) == 0)
    }

    @Test func nothingOutsideTheBoxIsKept() throws {
        // One subject inside the box, one across its right edge.
        let photo = Self.photo([(60, 60, 80, 80, Self.subject), (180, 60, 80, 80, Self.subject)])
        let box = CutoutGuidance.Box(x: 40, y: 40, width: 180, height: 120)
        let mask = try SubjectSegmenter(predictor: Self.standardKey()).mask(photo, guidance: CutoutGuidance(box: box))
        for y in 0..<300 {
            for x in 0..<400 where !(40..<220).contains(x) || !(40..<160).contains(y) {
                try #require(Self.value(mask, x, y) == 0, "(\(x), \(y)) is outside the box")
            }
        }
        #expect(Self.value(mask, 100, 100) == 255)
        #expect(Self.value(mask, 200, 100) == 255, "the part of the second subject inside the box stays")
    }

    @Test func aBoxOverNothingIsNoSubject() {
        let photo = Self.photo([(60, 60, 80, 80, Self.subject)])
        #expect(throws: ProcessingError.noSubject("the photo has no distinct subject")) {
            try SubjectSegmenter(predictor: Self.standardKey()).mask(photo, guidance: CutoutGuidance(box: .init(x: 250, y: 150, width: 100, height: 100)))
        }
    }

    @Test func guidanceOutsideThePhotoIsInvalid() {
        let photo = Self.photo([(60, 60, 80, 80, Self.subject)])
        let segmenter = SubjectSegmenter(predictor: Self.standardKey())
        #expect(throws: ProcessingError.invalidGuidance("exclude point 400,10 is outside the photo (400 x 300 pixels upright, origin at the top left)")) {
            try segmenter.cutout(photo, guidance: CutoutGuidance(exclude: [.init(x: 400, y: 10)]))
        }
        // In the upright photo's pixels, not the working image's.
        #expect(throws: ProcessingError.self) {
            try segmenter.cutout(photo, guidance: CutoutGuidance(box: .init(x: 0, y: 0, width: 10, height: 10)), uprightSize: (8, 6))
        }
    }

    @Test func guidanceThatNoLongerFitsFailsThePhotoButKeepsItsFacts() async throws {
        let jpeg = try SamplePhotos.jpeg(PhotoProcessorTests.scene, exif: nil, quality: 90)
        let attempt = await PhotoProcessor(predictor: PhotoProcessorTests.Refusing())
            .attempt(jpeg, guidance: CutoutGuidance(box: .init(x: 400, y: 300, width: 100, height: 50)))
        #expect(attempt.facts?.width == 480 && attempt.facts?.height == 360)
        #expect(throws: ProcessingError.invalidGuidance("box 400,300,100,50 is outside the photo (480 x 360 pixels upright, origin at the top left)")) {
            try attempt.result.get()
        }
    }

    @Test func noGuidanceIsTheAutomaticCutout() throws {
        let photo = Self.photo([(60, 60, 80, 80, Self.subject), (200, 100, 30, 30, Self.blue)])
        let segmenter = SubjectSegmenter(predictor: Self.standardKey())
        let automatic = try segmenter.cutout(photo, predictingFrom: photo)
        let guided = try segmenter.cutout(photo, predictingFrom: photo, guidance: .none, uprightSize: (400, 300))
        #expect(automatic.cutout == guided.cutout && automatic.mask == guided.mask)
    }

    @Test func anExcludePointTakesOutASeparatePart() throws {
        let photo = Self.photo([(60, 60, 120, 120, Self.subject), (260, 100, 60, 60, Self.subject)])
        let segmenter = SubjectSegmenter(predictor: Self.standardKey())
        let automatic = try segmenter.mask(photo)
        #expect(Self.value(automatic, 290, 130) == 255, "both parts are cut out on their own")
        let guided = try segmenter.mask(photo, guidance: CutoutGuidance(exclude: [.init(x: 290, y: 130)]))
        #expect((0..<300).allSatisfy { y in (250..<330).allSatisfy { Self.value(guided, $0, y) == 0 } }, "the small part is gone with its edge")
        #expect(Self.value(guided, 120, 120) == 255)
    }

    @Test func anExcludePointOnTheMainPartTakesOnlyWhatLooksLikeIt() throws {
        // One part, red on the left, blue on the right (a subject on its bed).
        let photo = Self.photo([(60, 60, 100, 120, Self.subject), (160, 60, 60, 120, Self.blue)])
        let mask = try SubjectSegmenter(predictor: Self.standardKey()).mask(photo, guidance: CutoutGuidance(exclude: [.init(x: 190, y: 120)]))
        #expect(Self.value(mask, 190, 120) == 0 && Self.value(mask, 170, 70) == 0 && Self.value(mask, 215, 175) == 0)
        #expect(Self.value(mask, 100, 120) == 255 && Self.value(mask, 150, 120) == 255, "the red part stays")
    }

    @Test func anExcludePointOffTheSubjectChangesNothing() throws {
        let photo = Self.photo([(60, 60, 120, 120, Self.subject)])
        let segmenter = SubjectSegmenter(predictor: Self.standardKey())
        #expect(try segmenter.mask(photo, guidance: CutoutGuidance(exclude: [.init(x: 300, y: 250)])) == segmenter.mask(photo))
    }

    @Test func anIncludePointBringsBackWhatTheNetworkHalfSaw() throws {
        // The yellow part is a weak 0.3 to the predictor: below the 0.5 a mask is cut at.
        let photo = Self.photo([(60, 60, 120, 120, Self.subject), (240, 80, 80, 80, Self.weak)])
        let segmenter = SubjectSegmenter(predictor: Self.standardKey())
        #expect(Self.value(try segmenter.mask(photo), 280, 120) == 0)
        let mask = try segmenter.mask(photo, guidance: CutoutGuidance(include: [.init(x: 280, y: 120)]))
        #expect(Self.value(mask, 280, 120) == 255 && Self.value(mask, 245, 85) >= 128)
        #expect(Self.value(mask, 230, 120) == 0 && Self.value(mask, 340, 120) == 0, "no more than the yellow part")
        #expect(Self.value(mask, 120, 120) == 255)
    }

    @Test func anIncludePointWhereTheNetworkSawNothingTakesWhatLooksLikeIt() throws {
        let photo = Self.photo([(60, 60, 120, 120, Self.subject), (250, 100, 50, 40, Self.unseen)])
        let mask = try SubjectSegmenter(predictor: Self.standardKey()).mask(photo, guidance: CutoutGuidance(include: [.init(x: 270, y: 120)]))
        #expect(Self.value(mask, 270, 120) == 255 && Self.value(mask, 252, 102) >= 128 && Self.value(mask, 297, 137) >= 128)
        #expect(Self.value(mask, 240, 120) == 0 && Self.value(mask, 275, 90) == 0, "the ground around it stays out")
    }

    @Test func anIncludedColourRegionIsBounded() throws {
        // A point on the open ground: only a disc of an eighth of the frame's long side (50 px).
        let photo = Self.photo([(60, 60, 120, 120, Self.subject)])
        let mask = try SubjectSegmenter(predictor: Self.standardKey()).mask(photo, guidance: CutoutGuidance(include: [.init(x: 300, y: 150)]))
        #expect(Self.value(mask, 300, 150) == 255 && Self.value(mask, 340, 150) == 255)
        #expect(Self.value(mask, 360, 150) == 0 && Self.value(mask, 300, 210) == 0)
    }

    @Test func anIncludedSpeckSurvivesTheCleanup() throws {
        // 6 x 6 pixels: under four cells of the predictor's grid, so the clean-up drops it unasked.
        let photo = Self.photo([(60, 60, 120, 120, Self.subject), (300, 200, 6, 6, Self.subject)])
        let segmenter = SubjectSegmenter(predictor: Self.standardKey())
        #expect(Self.value(try segmenter.mask(photo), 302, 202) == 0)
        #expect(Self.value(try segmenter.mask(photo, guidance: CutoutGuidance(include: [.init(x: 302, y: 202)])), 302, 202) >= 128)
    }

    @Test func excludeWinsOverInclude() throws {
        let photo = Self.photo([(60, 60, 120, 120, Self.subject), (260, 100, 60, 60, Self.subject)])
        let point = CutoutGuidance.Point(x: 290, y: 130)
        let mask = try SubjectSegmenter(predictor: Self.standardKey()).mask(photo, guidance: CutoutGuidance(include: [point], exclude: [point]))
        #expect(Self.value(mask, 290, 130) == 0)
    }

    @Test func aTransparentImageKeepsItsAlphaInsideTheBox() throws {
        var image = Self.photo([(60, 60, 200, 120, Self.subject)])
        for index in 0..<(400 * 300) where image.pixels[index * 4] != Self.subject.red { image.pixels[index * 4 + 3] = 0 }
        let result = try SubjectSegmenter(predictor: nil).cutout(image, guidance: CutoutGuidance(box: .init(x: 0, y: 0, width: 150, height: 300)))
        #expect(result.cutout.pixel(x: 100, y: 100).alpha == 255 && result.cutout.pixel(x: 200, y: 100).alpha == 0)
        #expect(result.mask[100 * 400 + 200] == 0)
    }
}
