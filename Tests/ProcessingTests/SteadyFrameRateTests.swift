import Foundation
import Testing
@testable import Processing

/// Telegram takes video stickers at a steady rate of at most 30 frames a second: whatever the source's
/// timing (GIF centiseconds, a phone's variable rate), the WebM's frames sit on one constant clock, as
/// ffprobe reads it: `r_frame_rate` at most 30 and every frame interval one tick.
@Suite(.enabled(if: ClipFixtures.ffprobe != nil, "ffprobe (Debian's ffmpeg, a test dependency) reads the WebM files"), .timeLimit(.minutes(15)))
struct SteadyFrameRateTests {
    /// Telegram's limits, as the export uses them.
    static let telegram = AnimationLimits(maxBytes: 256_000, maxMilliseconds: 3_000, maxFrameRate: 30)

    /// A small moving picture, one distinct frame per duration.
    static func clip(_ durations: [Int]) -> AnimationClip {
        let frames = durations.indices.map { index in
            var image = RGBAImage(width: 64, height: 48, red: 30, green: 60, blue: 200, alpha: 255)
            for y in 10..<38 {
                for x in 0..<12 {
                    let offset = (y * 64 + (index + x) % 64) * 4
                    image.pixels.replaceSubrange(offset..<offset + 4, with: [240, 130, 30, 255])
                }
            }
            return image
        }
        return AnimationClip(frames: frames, durations: durations)
    }

    /// The Telegram WebM of `clip`, and what ffprobe reads: the stream's r_frame_rate and every frame's
    /// start in seconds.
    static func telegramWebM(_ clip: AnimationClip) async throws -> (rate: Double, rateText: String, starts: [Double], bytes: [UInt8]) {
        guard case .fits(let fitted) = try AnimatedBudgetEncoder.encode(clip, as: .webm, limits: telegram) else {
            throw ProcessingError.encodingFailed("the clip did not fit Telegram's limit")
        }
        let probe = try await ClipFixtures.probe(
            fitted.bytes, name: "sticker.webm", ["-select_streams", "v", "-show_entries", "stream=r_frame_rate:packet=pts_time"])
        let stream = try #require((probe["streams"] as? [[String: Any]])?.first)
        let text = try #require(stream["r_frame_rate"] as? String)
        let parts = text.split(separator: "/").compactMap { Double($0) }
        try #require(parts.count == 2 && parts[1] > 0, "r_frame_rate \(text)")
        let packets = try #require(probe["packets"] as? [[String: Any]])
        let starts = packets.compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }.sorted()
        return (parts[0] / parts[1], text, starts, fitted.bytes)
    }

    /// Every interval between frames is one tick of `rate`, within the container's millisecond.
    static func expectSteady(_ starts: [Double], rate: Double, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(starts.count > 1, "\(what): \(starts.count) frames", sourceLocation: sourceLocation)
        let intervals = zip(starts.dropFirst(), starts).map { $0 - $1 }
        let uneven = intervals.filter { abs($0 - 1 / rate) > 0.0011 }
        #expect(uneven.isEmpty, "\(what): intervals off the \(rate) fps clock: \(uneven.prefix(8))", sourceLocation: sourceLocation)
    }

    @Test("a GIF of 3 cs frames (33.3 fps) becomes 30 fps on a constant clock")
    func gifCentiseconds() async throws {
        // What FrameSampler keeps of a 3 cs GIF at 30 fps: 30 ms instants, one dropped now and then.
        let sampled = try await AnimationDecoder.decode(try ClipFixtures.make("fast.gif", [
            "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=100/3", "-t", "3",
        ]), window: AnimationWindow(maxFrameRate: 30))
        let clip = AnimationClip(frames: sampled.frames.map(\.image), durations: sampled.frames.map(\.durationMilliseconds))
        #expect(Set(clip.durations).contains(30), "the source keeps its 30 ms instants: \(clip.durations.prefix(12))")
        let webm = try await Self.telegramWebM(clip)
        #expect(webm.rateText == "30/1", "r_frame_rate \(webm.rateText)")
        Self.expectSteady(webm.starts, rate: 30, "3 cs GIF")
        #expect(abs(Double(webm.starts.count) - 90) <= 1, "3 s at 30 fps: \(webm.starts.count) frames")
    }

    @Test("a GIF of 7, 7 and 6 cs frames (15 fps in centiseconds) stays at 15 fps, every frame kept")
    func gifAtFifteen() async throws {
        let webm = try await Self.telegramWebM(Self.clip([70, 70, 60, 70, 70, 60, 70, 70, 60, 70, 70, 60, 70, 70, 60]))
        #expect(webm.rateText == "15/1", "r_frame_rate \(webm.rateText)")
        #expect(webm.starts.count == 15)
        Self.expectSteady(webm.starts, rate: 15, "15 fps GIF")
    }

    @Test("a clip at a phone's variable rate is put on a 30 fps clock")
    func variableRate() async throws {
        // 27 to 40 ms, averaging about 30 fps, as a phone records in low light.
        let durations = (0..<80).map { [33, 35, 31, 40, 27, 34, 29, 38][$0 % 8] }
        let webm = try await Self.telegramWebM(Self.clip(durations))
        #expect(webm.rateText == "30/1", "r_frame_rate \(webm.rateText)")
        Self.expectSteady(webm.starts, rate: 30, "variable-rate clip")
    }

    @Test("a 10 fps animation keeps its frames: a steady clock of 10")
    func slowAnimation() async throws {
        let webm = try await Self.telegramWebM(Self.clip([Int](repeating: 100, count: 20)))
        #expect(webm.rateText == "10/1", "r_frame_rate \(webm.rateText)")
        #expect(webm.starts.count == 20)
        Self.expectSteady(webm.starts, rate: 10, "10 fps animation")
    }

    @Test("on a steady clock every frame shows one tick; a long frame repeats; the running time stays within the limit")
    func steadiedTiming() throws {
        let clip = Self.clip([100, 500, 30, 30, 30])
        let steady = clip.steadied(atMost: 30)
        let rate = try #require(steady.steadyFrameRate)
        #expect(rate == 30, "frames 30 ms apart fit no slower clock")
        let tick = 1000 / rate
        for (index, duration) in steady.durations.enumerated() {
            #expect(abs(Double(duration) - tick) <= 1, "frame \(index): \(duration) ms")
        }
        #expect(abs(steady.milliseconds - clip.milliseconds) <= Int(tick / 2) + 1)
        // The frame on screen at each tick: the 500 ms frame repeats 15 times.
        #expect(steady.frames.filter { $0 == clip.frames[1] }.count == 15)
        #expect(clip.steadied(atMost: 30, within: 600).milliseconds <= 600)
        #expect(Self.clip([Int](repeating: 100, count: 5)).steadied(atMost: 30).frames.count == 5)
    }
}
