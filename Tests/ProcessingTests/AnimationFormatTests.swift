import Testing
@testable import Processing

/// Telling animations from stills by their bytes, and stills detected exactly as before.
@Suite(.timeLimit(.minutes(15)))
struct AnimationFormatTests {
    static func ftyp(major: String, compatible: [String]) -> [UInt8] {
        let size = 16 + 4 * compatible.count
        return [0, 0, 0, UInt8(size)] + Array("ftyp\(major)".utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
    }

    @Test func isoBrandsTellClipsFromStills() {
        #expect(AnimationFormat.detect(Self.ftyp(major: "isom", compatible: ["isom", "iso2", "avc1", "mp41"])) == .mp4)
        #expect(AnimationFormat.detect(Self.ftyp(major: "mp42", compatible: ["mp42", "isom"])) == .mp4)
        #expect(AnimationFormat.detect(Self.ftyp(major: "qt  ", compatible: ["qt  "])) == .quickTime)
        // HEIF and AVIF use ftyp too, and stay stills.
        for still in [
            Self.ftyp(major: "heic", compatible: ["mif1", "heic"]), Self.ftyp(major: "avif", compatible: ["mif1", "avif", "miaf"]),
            Self.ftyp(major: "mif1", compatible: ["mif1", "avif", "iso8"]), Self.ftyp(major: "mif1", compatible: ["heic", "isom"]),
        ] {
            #expect(AnimationFormat.detect(still) == nil)
            #expect(MediaFormat.detect(still) == ImageFormat.detect(still).map(MediaFormat.still))
        }
        // An unknown brand is neither.
        #expect(AnimationFormat.detect(Self.ftyp(major: "crx ", compatible: ["crx "])) == nil)
    }

    @Test func everyAnimationFormatHasAFormatToRecord() {
        let recorded = AnimationFormat.allCases.map(\.recordedFormat)
        #expect(Set(recorded).count == AnimationFormat.allCases.count)
        #expect(recorded == [.mp4, .mov, .webm, .mkv, .gif, .apng, .webp])
    }

    @Test func matroskaDocTypeTellsWebMFromMatroska() {
        func ebml(_ docType: String) -> [UInt8] {
            let body: [UInt8] = [0x42, 0x82, 0x80 | UInt8(docType.utf8.count)] + Array(docType.utf8)
            return [0x1A, 0x45, 0xDF, 0xA3, 0x80 | UInt8(body.count)] + body + [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        }
        #expect(AnimationFormat.detect(ebml("webm")) == .webm)
        #expect(AnimationFormat.detect(ebml("matroska")) == .matroska)
        #expect(!MatroskaHeader.isTruncated(ebml("webm")))  // A Segment of unknown size is complete.
    }

    @Test func stillImagesAreNotAnimations() throws {
        let image = Fixtures.quadrants(width: 32, height: 24)
        let stills: [(bytes: [UInt8], format: ImageFormat)] = [
            (try JPEGCodec.encode(image), .jpeg), (try PNGCodec.encode(image), .png), (try WebPCodec.encode(image, mode: .lossless), .webp),
        ]
        for still in stills {
            #expect(AnimationFormat.detect(still.bytes) == nil)
            #expect(ImageFormat.detect(still.bytes) == still.format)
            #expect(MediaFormat.detect(still.bytes) == .still(still.format))
        }
        #expect(MediaFormat.detect([1, 2, 3, 4]) == nil)
    }

    @Test func oneFrameGIFIsAStillAsBefore() async throws {
        let gif = try await ClipFixtures.make("still.gif", ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-frames:v", "1"])
        #expect(AnimationFormat.detect(gif) == nil)
        #expect(MediaFormat.detect(gif) == .still(.gif))
        #expect(throws: ProcessingError.unsupportedFormat("GIF")) { try PhotoDecoder.decode(gif, options: DecodeOptions()) }
        let animated = try await ClipFixtures.make("anim.gif", ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-t", "1"])
        #expect(AnimationFormat.detect(animated) == .gif)
        #expect(GIFBlocks(animated).frameCount == 10)
    }

    @Test func apngNeedsAnAnimationControlChunkBeforeItsImageData() async throws {
        let apng = try await ClipFixtures.make("anim.png", ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-t", "1", "-f", "apng", "-plays", "3"])
        #expect(ImageFormat.detect(apng) == .png)
        #expect(AnimationFormat.detect(apng) == .apng)
        #expect(PNGAnimationChunks(apng).loopCount == 3)
        let png = try PNGCodec.encode(Fixtures.quadrants(width: 8, height: 8))
        #expect(!PNGAnimationChunks(png).isAnimated)
        #expect(!PNGAnimationChunks(png).isTruncated)
    }

    @Test func animatedWebPIsStillRefusedByTheStillDecoder() async throws {
        let webp = try await ClipFixtures.make("anim.webp", ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-t", "1", "-c:v", "libwebp_anim"])
        #expect(ImageFormat.detect(webp) == .webp)
        #expect(AnimationFormat.detect(webp) == .webp)
        #expect(throws: ProcessingError.unsupportedFormat("animated WebP (still images only)")) {
            try PhotoDecoder.decode(webp, options: DecodeOptions())
        }
    }

    @Test func sixtyFPSUnderAThirtyFPSCapKeepsEveryOtherFrame() throws {
        var sampler = FrameSampler(window: AnimationWindow(duration: 1))
        let image = RGBAImage(width: 1, height: 1, red: 0, green: 0, blue: 0)
        for index in 0 ..< 120 { try sampler.offer(time: Double(index) / 60) { image } }
        let frames = sampler.finish(sourceEnd: 2)
        #expect(frames.count == 30)
        #expect(frames.map(\.durationMilliseconds).reduce(0, +) == 1000)
    }

    @Test func frameShowingWhenTheWindowOpensIsItsFirst() throws {
        // Frames at 0 s and 2 s; a window from 1 s shows the first frame until 2 s, then the second.
        var sampler = FrameSampler(window: AnimationWindow(start: 1, duration: 3))
        let first = RGBAImage(width: 1, height: 1, red: 255, green: 0, blue: 0)
        let second = RGBAImage(width: 1, height: 1, red: 0, green: 255, blue: 0)
        try sampler.offer(time: 0) { first }
        try sampler.offer(time: 2) { second }
        let frames = sampler.finish(sourceEnd: 3)
        #expect(frames.map(\.image) == [first, second])
        #expect(frames.map(\.durationMilliseconds) == [1000, 1000])
    }
}
