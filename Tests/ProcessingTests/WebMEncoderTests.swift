import Foundation
import Testing
@testable import Processing

/// Telegram's video stickers: VP9 with alpha in WebM, checked from outside with ffprobe and with
/// ffmpeg's libvpx-vp9 decoder (the one that reads the alpha), and read back by the catalog's own
/// decoder.
@Suite(.timeLimit(.minutes(15)))
struct WebMEncoderTests {
    static let discRadius = 80

    /// Where the disc's centre is in frame `index`: it moves right 8 px a frame, half way down.
    static func discCentre(_ index: Int, height: Int) -> (x: Int, y: Int) { (100 + index * 8, height / 2) }

    /// A red disc moving over a transparent canvas, with a soft (half-transparent) rim.
    static func frames(width: Int = 512, height: Int = 384, count: Int = 30) -> [RGBAImage] {
        (0..<count).map { index in
            var image = RGBAImage(width: width, height: height, red: 0, green: 0, blue: 0, alpha: 0)
            let centre = discCentre(index, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let distance = (Double((x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y))).squareRoot()
                    let coverage = min(1, max(0, Double(discRadius) - distance))
                    guard coverage > 0 else { continue }
                    let offset = (y * width + x) * 4
                    image.pixels.replaceSubrange(offset..<offset + 4, with: [220, 40, 30, UInt8((coverage * 255).rounded())])
                }
            }
            return image
        }
    }

    static let thirtyFrames = frames()
    static let durations = [Int](repeating: 33, count: 30)

    @Test func aStickerIsOneVP9StreamWithAlphaAndTheFramesDuration() async throws {
        let webm = try WebMEncoder.encode(Self.thirtyFrames, durations: Self.durations, quality: 50)
        #expect(webm.count <= 256_000, "Telegram's limit")
        let probe = try await ClipFixtures.probe(webm, name: "sticker.webm", ["-count_frames", "-show_streams", "-show_format"])
        let streams = try #require(probe["streams"] as? [[String: Any]])
        #expect(streams.count == 1, "one video stream, no audio")
        let video = try #require(streams.first)
        #expect(video["codec_type"] as? String == "video")
        #expect(video["codec_name"] as? String == "vp9")
        #expect(video["width"] as? Int == 512)
        #expect(video["height"] as? Int == 384)
        #expect(video["nb_read_frames"] as? String == "30")
        #expect((video["disposition"] as? [String: Int])?["default"] == 1)
        let tags = video["tags"] as? [String: String] ?? [:]
        #expect(tags.first { $0.key.lowercased() == "alpha_mode" }?.value == "1", "the track's AlphaMode, tags: \(tags)")
        let format = try #require(probe["format"] as? [String: Any])
        #expect((format["format_name"] as? String)?.contains("webm") == true)
        let duration = try #require(Double(format["duration"] as? String ?? ""))
        #expect(abs(duration - 0.990) < 0.0005, "30 frames of 33 ms")
        #expect(!webm.contains(subsequence: Array("Lavf5".utf8)), "no library version in a bit-exact file")
    }

    @Test func theAlphaSurvivesADecodeWithLibvpx() async throws {
        let (width, height) = (512, 384)
        let webm = try WebMEncoder.encode(Self.thirtyFrames, durations: Self.durations, quality: 50)
        // The native vp9 decoder ignores the alpha stream; libvpx-vp9 merges it back.
        let raw = try await ClipFixtures.make(
            "frames.rgba", from: ("sticker.webm", webm), ["-c:v", "libvpx-vp9", "-i", "INPUT", "-f", "rawvideo", "-pix_fmt", "rgba"])
        let frameBytes = width * height * 4
        #expect(raw.count == 30 * frameBytes)
        for index in [0, 15, 29] where raw.count >= (index + 1) * frameBytes {
            let image = RGBAImage(width: width, height: height, pixels: Array(raw[index * frameBytes..<(index + 1) * frameBytes]))
            for (x, y) in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)] {
                #expect(image.pixel(x: x, y: y).alpha == 0, "frame \(index): the corner (\(x), \(y)) stays transparent")
            }
            let centre = Self.discCentre(index, height: height)
            let pixel = image.pixel(x: centre.x, y: centre.y)
            #expect(pixel.alpha == 255, "frame \(index): the disc's centre is opaque")
            #expect(abs(Int(pixel.red) - 220) < 16 && abs(Int(pixel.green) - 40) < 16 && abs(Int(pixel.blue) - 30) < 16,
                    "frame \(index): the disc's centre is red, got \(pixel)")
            // Beside the disc, where it has been and gone: transparent again.
            #expect(image.pixel(x: centre.x + Self.discRadius + 20, y: centre.y).alpha == 0)
        }
    }

    @Test func variableDurationsAreKeptAsTheFramesTimes() async throws {
        let durations = [100, 40, 500, 33, 250, 77]
        let webm = try WebMEncoder.encode(Array(Self.thirtyFrames.prefix(6)), durations: durations, quality: 50)
        let probe = try await ClipFixtures.probe(webm, name: "sticker.webm", ["-show_packets", "-show_format"])
        let packets = try #require(probe["packets"] as? [[String: Any]])
        let starts = durations.indices.map { durations.prefix($0).reduce(0, +) }
        #expect(packets.compactMap { $0["pts"] as? Int } == starts)
        let format = try #require(probe["format"] as? [String: Any])
        let duration = try #require(Double(format["duration"] as? String ?? ""))
        #expect(abs(duration - Double(durations.reduce(0, +)) / 1000) < 0.0005)
    }

    @Test func theSameFramesGiveTheSameBytes() throws {
        let first = try WebMEncoder.encode(Self.thirtyFrames, durations: Self.durations, quality: 60)
        let second = try WebMEncoder.encode(Self.thirtyFrames, durations: Self.durations, quality: 60)
        #expect(first == second)
    }

    /// A cut-out keeps its photo's colours under alpha 0: they must not cost bytes.
    @Test func coloursUnderTransparencyAreNotEncoded() throws {
        let clean = Array(Self.thirtyFrames.prefix(10))
        let busy = clean.enumerated().map { index, frame in
            var image = frame
            for offset in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[offset + 3] == 0 {
                let noise = UInt8(truncatingIfNeeded: (offset &* 2_654_435_761 &+ index &* 97) >> 13)
                image.pixels.replaceSubrange(offset..<offset + 3, with: [noise, noise &+ 85, noise &+ 170])
            }
            return image
        }
        let durations = [Int](repeating: 33, count: 10)
        #expect(try WebMEncoder.encode(busy, durations: durations, quality: 50) == WebMEncoder.encode(clean, durations: durations, quality: 50))
    }

    @Test func higherQualityIsNeverSmaller() throws {
        let sizes = try [0, 25, 50, 75, 100].map { try WebMEncoder.encode(Self.thirtyFrames, durations: Self.durations, quality: $0).count }
        print("WebM sizes of 30 frames 512x384 at quality 0, 25, 50, 75, 100: \(sizes) bytes")
        #expect(sizes == sizes.sorted(), "\(sizes)")
        #expect(sizes.first! < sizes.last!)
        #expect(WebMEncoder.crf(quality: 0) == 63 && WebMEncoder.crf(quality: 100) == 10)
        let levels = (0...100).map { WebMEncoder.crf(quality: $0) }
        #expect(levels == levels.sorted(by: >))
    }

    @Test(arguments: [(511, 301), (301, 512), (1, 1), (3, 2)])
    func oddSizesEncodeAndDecodeAtTheirSize(size: (width: Int, height: Int)) throws {
        let frames = (0..<3).map { index in
            RGBAImage(width: size.width, height: size.height, red: UInt8(60 * index), green: 120, blue: 200, alpha: index == 0 ? 0 : 255)
        }
        let webm = try WebMEncoder.encode(frames, durations: [40, 40, 40], quality: 70)
        let animation = try AnimationDecoder.decode(webm)
        #expect(animation.format == .webm)
        #expect((animation.width, animation.height) == (size.width, size.height))
        #expect(animation.frames.count == 3)
        #expect(animation.durationMilliseconds == 120)
    }

    /// The catalog reads back what it writes (without the alpha: FFmpeg's native vp9 decoder drops it).
    @Test func theCatalogsDecoderReadsTheSticker() throws {
        // 25 fps: at 33 ms a frame, the decoder's 30 fps sampling grid drops one of 30 frames.
        let webm = try WebMEncoder.encode(Self.thirtyFrames, durations: [Int](repeating: 40, count: 30), quality: 50)
        #expect(AnimationFormat.detect(webm) == .webm)
        let animation = try AnimationDecoder.decode(webm)
        #expect(animation.format == .webm)
        #expect((animation.width, animation.height) == (512, 384))
        #expect(animation.frames.count == 30)
        #expect(animation.durationMilliseconds == 1200)
        #expect(animation.frames.allSatisfy { $0.durationMilliseconds == 40 })
        let centre = Self.discCentre(0, height: 384)
        let pixel = try #require(animation.frames.first).image.pixel(x: centre.x, y: centre.y)
        #expect(abs(Int(pixel.red) - 220) < 16 && abs(Int(pixel.green) - 40) < 16)
    }

    @Test func badInputIsRefused() {
        let frames = Array(Self.thirtyFrames.prefix(2))
        #expect(throws: ProcessingError.encodingFailed("an animation needs at least one frame")) {
            try WebMEncoder.encode([], durations: [], quality: 50)
        }
        #expect(throws: ProcessingError.encodingFailed("2 frames but 1 durations")) {
            try WebMEncoder.encode(frames, durations: [33], quality: 50)
        }
        #expect(throws: ProcessingError.encodingFailed("an animation's frames must all be 512x384")) {
            try WebMEncoder.encode([frames[0], RGBAImage(width: 384, height: 512, red: 0, green: 0, blue: 0)], durations: [33, 33], quality: 50)
        }
        #expect(throws: ProcessingError.encodingFailed("every frame must show for at least 1 ms")) {
            try WebMEncoder.encode(frames, durations: [33, 0], quality: 50)
        }
    }

    /// The figure behind `WebMEncoder.cpuUsed`: 90 frames (3 s at 30 fps) at Telegram's 512x512.
    @Test func encodeTimeAtTelegramSize() throws {
        let frames = Self.frames(width: 512, height: 512, count: 45)
        let ninety = frames + frames.reversed()
        let durations = [Int](repeating: 33, count: 90)
        var report: [String] = []
        for quality in [30, 60, 90] {
            let clock = ContinuousClock()
            var webm: [UInt8] = []
            let elapsed = try clock.measure { webm = try WebMEncoder.encode(ninety, durations: durations, quality: quality) }
            report.append("quality \(quality) (crf \(WebMEncoder.crf(quality: quality))): \(webm.count) bytes in \(elapsed)")
            #expect(elapsed < .seconds(20), "quality \(quality): \(elapsed)")
        }
        print("WebM, 90 frames 512x512, cpu-used \(WebMEncoder.cpuUsed): " + report.joined(separator: "; "))
    }
}

extension Array where Element: Equatable {
    /// Whether `needle` occurs in the array as consecutive elements.
    fileprivate func contains(subsequence needle: [Element]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { start in self[start..<start + needle.count].elementsEqual(needle) }
    }
}
