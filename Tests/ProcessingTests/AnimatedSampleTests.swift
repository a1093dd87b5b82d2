import Foundation
import SampleImages
import Testing

@testable import Processing

/// The demo's animated sample (`SamplePhotos.animatedDemo`): what `make demo` imports as its
/// animated entry.
@Suite(.timeLimit(.minutes(15)))
struct AnimatedSampleTests {
    @Test func theDemoSetEndsWithThreeAnimationsTheFirstAnAnimatedWebPOfTwentyTwoFrames() throws {
        let photos = try SamplePhotos.demo()
        let animated = photos.filter { AnimationFormat.detect($0.bytes) != nil }
        // The stills keep their formats: the three samples at the end are the set's only animations,
        // enough for a WhatsApp animated pack.
        #expect(animated.map(\.name) == ["magenta-star-bouncing.webp", "lime-ball-rolling.png", "green-blob-drifting.webp"])
        #expect(photos.suffix(3).map(\.name) == animated.map(\.name))
        #expect(AnimationFormat.detect(animated[1].bytes) == .apng)
        let sample = animated[0]
        #expect(AnimationFormat.detect(sample.bytes) == .webp)
        let decoded = try AnimationDecoder.decode(sample.bytes)
        #expect(decoded.frames.count == SamplePhotos.animatedFrameCount)
        #expect((decoded.width, decoded.height) == (640, 480))
        #expect(abs(decoded.durationMilliseconds - 1467) <= 1)
        #expect(decoded.loopCount == 0)
        // The subject moves: the first and last frames differ.
        #expect(decoded.frames.first?.image != decoded.frames.last?.image)
        // Smaller demo sets (the tests' 320 x 240) get a smaller animation.
        let small = try #require(try SamplePhotos.demo(width: 320, height: 240).first { $0.name == "magenta-star-bouncing.webp" })
        #expect(try AnimationDecoder.decode(small.bytes).width == 320)
    }

    static let modelFolder: URL? = ProcessInfo.processInfo.environment["STICKER_U2NETP_DIR"].map { URL(fileURLWithPath: $0) }

    /// The network cuts the star out of every frame: the masks follow the known ones.
    @Test(.enabled(if: modelFolder != nil, "set STICKER_U2NETP_DIR to a folder with u2netp.json and u2netp.bin"))
    func everyFrameIsCutOutCleanly() async throws {
        let predictor = try NetworkMaskPredictor.installed(.u2netp, in: try #require(Self.modelFolder))
        let scenes = SamplePhotos.animatedDemoScenes()
        let decoded = try AnimationDecoder.decode(try SamplePhotos.animatedDemo().bytes)
        let cutter = ClipCutter(style: StickerStyle(size: 256, outline: 6, shadow: false), paletteColors: 5,
                                segmenter: SubjectSegmenter(predictor: predictor))
        let clip = try await cutter.cut(decoded.frames.map(\.image))
        for (mask, scene) in zip(clip.masks, scenes) {
            let overlap = ClipCutout.intersectionOverUnion(mask, scene.renderMask())
            #expect(overlap >= 0.9, "star at \(scene.centerX), \(scene.centerY): IoU \(overlap) with the true mask")
        }
    }
}
