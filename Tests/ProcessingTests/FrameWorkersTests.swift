import SampleImages
import Synchronization
import Testing

@testable import Processing

/// A predictor that depends on the frame alone (its call order does not matter, unlike
/// `WaveringPredictor`'s): cells near the subject's colour are 1, others 0, on a 48 x 48 grid.
private struct ColourPredictor: MaskPredictor {
    let subject: RGB

    func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
        let side = 48
        let small = ImageResizer.resized(image, width: side, height: side)
        let values = (0..<(side * side)).map { index -> Float in
            let red = Int(small.pixels[index * 4]), green = Int(small.pixels[index * 4 + 1]), blue = Int(small.pixels[index * 4 + 2])
            let distance = abs(red - Int(subject.red)) + abs(green - Int(subject.green)) + abs(blue - Int(subject.blue))
            return distance < 120 ? 1 : 0
        }
        return LowResolutionMask(width: side, height: side, values: values)
    }
}

/// How often each frame ran, shared with the frames' escaping closures (a `Mutex` alone cannot be captured there).
private final class Tally: Sendable {
    let runs: Mutex<[Int]>

    init(count: Int) {
        runs = Mutex([Int](repeating: 0, count: count))
    }
}

@Suite(.timeLimit(.minutes(15)))
struct FrameWorkersTests {
    @Test(arguments: [0, 1, 2, 9, 90])
    func everyFrameRunsOnceInOrderOnTheBatchsCores(count: Int) async throws {
        let tally = Tally(count: count)
        let cores = SpareCores(jobs: 2, cores: 2)
        let outputs = try await cores.holding { () async -> Result<[Int], ProcessingError> in
            do throws(ProcessingError) {
                return .success(try await FrameWorkers.map(count: count) { index in
                    tally.runs.withLock { $0[index] += 1 }
                    // A little work, so that a helper has a chance to take frames.
                    var sum = 0
                    for value in 0..<20_000 { sum &+= value &* index }
                    return index * 10 + sum - sum
                })
            } catch {
                return .failure(error)
            }
        }.get()
        #expect(outputs == (0..<count).map { $0 * 10 })
        #expect(tally.runs.withLock { $0 } == [Int](repeating: 1, count: count))
        // Every borrowed core was given back.
        #expect(cores.borrow())
        cores.giveBack()
    }

    @Test func theLowestFailingFrameIsTheError() async {
        let cores = SpareCores(jobs: 2, cores: 2)
        let result = await cores.holding { () async -> Result<[Int], ProcessingError> in
            do throws(ProcessingError) {
                return .success(try await FrameWorkers.map(count: 40) { index throws(ProcessingError) in
                    if index >= 7 && index % 7 == 0 { throw .noSubject("frame \(index)") }
                    return index
                })
            } catch {
                return .failure(error)
            }
        }
        #expect(throws: ProcessingError.noSubject("frame 7")) { try result.get() }
    }

    @Test func aHelperGivesItsCoreBackWhenAPhotoNeedsIt() {
        let cores = SpareCores(jobs: 2, cores: 2)
        cores.enter()
        #expect(cores.borrow())
        #expect(!cores.isOverdrawn)
        // A second photo of the batch starts: the lent core is wanted back.
        cores.enter()
        #expect(cores.isOverdrawn)
        cores.giveBack()
        #expect(!cores.isOverdrawn)
        cores.leave()
        cores.leave()
    }

    /// A clip cut on two cores is the clip cut on one, frame for frame.
    @Test func aClipCutOnTwoCoresIsTheClipCutOnOne() async throws {
        let orange = RGB(240, 130, 30)
        let frames = (0..<12).map { index in
            SampleScene(width: 320, height: 240, background: .noise(RGB(70, 110, 150), amplitude: 30), shape: .ellipse,
                        subjectColor: orange, centerX: 0.3 + 0.4 * Double(index) / 11, radius: 0.3, seed: UInt64(index + 1)).renderPhoto()
        }
        let cutter = ClipCutter(style: StickerStyle(size: 256, outline: 6, shadow: false), paletteColors: 5,
                                segmenter: SubjectSegmenter(predictor: ColourPredictor(subject: orange)))
        func cut(jobs: Int) async throws -> ClipCutout {
            try await SpareCores(jobs: jobs, cores: 2).holding { () async -> Result<ClipCutout, ProcessingError> in
                do throws(ProcessingError) { return .success(try await cutter.cut(frames)) } catch { return .failure(error) }
            }.get()
        }
        let one = try await cut(jobs: 1), two = try await cut(jobs: 2)
        #expect(one.frames == two.frames)
        #expect(one.masks == two.masks)
        #expect(one.palette == two.palette)
    }
}
