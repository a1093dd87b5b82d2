import Foundation
import SampleImages
import Synchronization
import Testing
@testable import Processing

/// A predictor that wavers as a network does from frame to frame: it finds the subject by its colour
/// on a 64 × 64 grid, gives the cells along the subject's edge a value that changes with every frame,
/// and in one frame of six (the fourth, the tenth...) misses a quarter of the subject.
final class WaveringPredictor: MaskPredictor {
    let subject: RGB
    private let calls = Mutex(0)

    init(subject: RGB) {
        self.subject = subject
    }

    func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
        let side = 64
        let small = ImageResizer.resized(image, width: side, height: side)
        // The frame's own noise picks the wavering, so each frame wavers differently and the same
        // frame always the same way.
        var state = UInt64(small.pixels.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude) | 1
        func random() -> Float {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Float(state % 1000) / 1000
        }
        var inside = [Bool](repeating: false, count: side * side)
        for index in inside.indices {
            let red = Int(small.pixels[index * 4]), green = Int(small.pixels[index * 4 + 1]), blue = Int(small.pixels[index * 4 + 2])
            inside[index] = abs(red - Int(subject.red)) + abs(green - Int(subject.green)) + abs(blue - Int(subject.blue)) < 120
        }
        let call = calls.withLock { calls in
            defer { calls += 1 }
            return calls
        }
        let missesAQuarter = call % 6 == 3
        let centre = inside.indices.filter { inside[$0] }.reduce((0, 0)) { ($0.0 + $1 % side, $0.1 + $1 / side) }
        let count = max(1, inside.filter { $0 }.count)
        var values = [Float](repeating: 0, count: side * side)
        for y in 0..<side {
            for x in 0..<side {
                let index = y * side + x
                let neighbours = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)].filter { $0.0 >= 0 && $0.0 < side && $0.1 >= 0 && $0.1 < side }
                let edge = neighbours.contains { inside[$0.1 * side + $0.0] != inside[index] }
                values[index] = edge ? random() : (inside[index] ? 1 : 0)
                if missesAQuarter && inside[index] && x > centre.0 / count && y > centre.1 / count { values[index] = 0 }
            }
        }
        return LowResolutionMask(width: side, height: side, values: values)
    }
}

@Suite(.timeLimit(.minutes(15)))
struct ClipCutterTests {
    static let orange = RGB(240, 130, 30)

    /// A clip of `count` frames of one subject over a grainy background whose grain changes every
    /// frame, as a camera's does; `moving` slides the subject across the frame.
    static func clip(count: Int, moving: Bool = false) -> [SampleScene] {
        (0..<count).map { index in
            SampleScene(width: 480, height: 360, background: .noise(RGB(70, 110, 150), amplitude: 30), shape: .ellipse,
                        subjectColor: orange, centerX: moving ? 0.3 + 0.4 * Double(index) / Double(max(1, count - 1)) : 0.5,
                        radius: 0.3, seed: UInt64(index + 1))
        }
    }

    static func cutter(_ predictor: any MaskPredictor) -> ClipCutter {
        ClipCutter(style: StickerStyle(size: 256, outline: 6, shadow: false), paletteColors: 5, segmenter: SubjectSegmenter(predictor: predictor))
    }

    @Test func aStillSubjectDoesNotFlickerAndAMissedFrameKeepsItsSubject() async throws {
        let frames = Self.clip(count: 24).map { $0.renderPhoto() }
        var unsteady = Self.cutter(WaveringPredictor(subject: Self.orange))
        unsteady.steadies = false
        let before = try await unsteady.cut(frames).steadiness
        let clip = try await Self.cutter(WaveringPredictor(subject: Self.orange)).cut(frames)
        #expect(before < 0.97, "the predictor should waver enough to need steadying: \(before)")
        #expect(clip.steadiness >= 0.97, "mean IoU of consecutive masks \(clip.steadiness), \(before) unsteadied")
        // No frame lost its quarter: each frame's subject covers at least 95 % of the true one.
        let truth = Self.clip(count: 1)[0].renderMask()
        for mask in clip.masks {
            #expect(ClipCutout.intersectionOverUnion(mask, truth) >= 0.9)
        }
    }

    @Test func aMovingSubjectIsFollowedWithoutGhosts() async throws {
        let scenes = Self.clip(count: 16, moving: true)
        let clip = try await Self.cutter(WaveringPredictor(subject: Self.orange)).cut(scenes.map { $0.renderPhoto() })
        for (mask, scene) in zip(clip.masks, scenes) {
            let overlap = ClipCutout.intersectionOverUnion(mask, scene.renderMask())
            #expect(overlap >= 0.85, "frame of subject at \(scene.centerX): IoU \(overlap) with the true mask")
        }
    }

    @Test func everyFrameSharesOneSizeAndThePaletteHoldsTheSubject() async throws {
        let scenes = Self.clip(count: 8, moving: true)
        let clip = try await Self.cutter(WaveringPredictor(subject: Self.orange)).cut(scenes.map { $0.renderPhoto() })
        #expect(clip.frames.count == 8)
        #expect(Set(clip.frames.map { "\($0.width)x\($0.height)" }).count == 1)
        #expect(max(clip.frames[0].width, clip.frames[0].height) == 256)
        // One box for the clip: the subject moves inside the sticker, so its first and last frames differ.
        #expect(clip.frames.first != clip.frames.last)
        let main = try #require(clip.palette.colors.max { $0.share < $1.share })
        #expect(main.hex.lowercased().hasPrefix("#e") || main.hex.lowercased().hasPrefix("#f"), "\(clip.palette.colors.map(\.hex))")
    }

    @Test func aBoxOnTheFirstFramePicksOneOfTwoSubjectsAndFollowsItAsItMoves() async throws {
        let scenes = (0..<12).map { index in
            SampleScene(width: 480, height: 360, background: .noise(RGB(70, 110, 150), amplitude: 30), shape: .ellipse,
                        subjectColor: Self.orange, centerX: 0.55 + 0.3 * Double(index) / 11, radius: 0.15, seed: UInt64(index + 1))
        }
        // A second subject of the same colour stands still on the left of every frame.
        let frames = scenes.map { scene in
            var photo = scene.renderPhoto()
            for y in 135..<225 {
                for x in 25..<115 where (x - 70) * (x - 70) + (y - 180) * (y - 180) < 45 * 45 {
                    let offset = (y * photo.width + x) * 4
                    (photo.pixels[offset], photo.pixels[offset + 1], photo.pixels[offset + 2]) = (Self.orange.red, Self.orange.green, Self.orange.blue)
                }
            }
            return photo
        }
        let first = scenes[0].renderMask()
        let columns = (0..<first.count).filter { first[$0] >= 128 }.map { $0 % 480 }
        let rows = (0..<first.count).filter { first[$0] >= 128 }.map { $0 / 480 }
        let left = try #require(columns.min()), right = try #require(columns.max())
        let top = try #require(rows.min()), bottom = try #require(rows.max())
        let box = CutoutGuidance.Box(x: left - 10, y: top - 10, width: right - left + 21, height: bottom - top + 21)

        let unguided = try await Self.cutter(WaveringPredictor(subject: Self.orange)).cut(frames)
        #expect(unguided.masks[0][180 * 480 + 70] >= 128, "without a box both subjects are kept")
        let clip = try await Self.cutter(WaveringPredictor(subject: Self.orange)).cut(frames, box: box, upright: (480, 360))
        for (index, (mask, scene)) in zip(clip.masks, scenes).enumerated() {
            #expect(mask[180 * 480 + 70] < 128, "frame \(index): the subject outside the box is left out")
            let overlap = ClipCutout.intersectionOverUnion(mask, scene.renderMask())
            #expect(overlap >= 0.8, "frame \(index): IoU \(overlap) with the boxed subject")
        }
    }

    @Test func aClipWithNoSubjectIsRefused() async {
        let frames = (0..<4).map { _ in RGBAImage(width: 200, height: 150, red: 70, green: 110, blue: 150) }
        await #expect(throws: ProcessingError.self) { try await Self.cutter(WaveringPredictor(subject: Self.orange)).cut(frames) }
    }

    static let modelFolder: URL? = ProcessInfo.processInfo.environment["STICKER_U2NETP_DIR"].map { URL(fileURLWithPath: $0) }

    /// The network itself on a clip of a still subject: the figure the animated stickers promise.
    @Test(.enabled(if: modelFolder != nil, "set STICKER_U2NETP_DIR to a folder with u2netp.json and u2netp.bin"))
    func theNetworkOnAStillSubjectIsSteady() async throws {
        let predictor = try NetworkMaskPredictor.installed(.u2netp, in: try #require(Self.modelFolder))
        let frames = Self.clip(count: 20).map { $0.renderPhoto() }
        var unsteady = Self.cutter(predictor)
        unsteady.steadies = false
        let before = try await unsteady.cut(frames).steadiness
        let after = try await Self.cutter(predictor).cut(frames).steadiness
        print("u2netp on a still subject, 20 frames: mean IoU of consecutive masks \(after) (unsteadied \(before))")
        #expect(after >= 0.97)
        #expect(after >= before)
    }
}
