import Foundation
import Testing
@testable import Processing

/// Clips and animated images decoded into frames: detection, the window, the caps, rotation, limits
/// and errors. Inputs are made with the ffmpeg CLI at test time (`ClipFixtures`).
@Suite(.timeLimit(.minutes(15)))
struct AnimationDecoderTests {
    static let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
    static let small10fps = ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-t", "4"]

    static func h264Clip(_ source: [String] = ClipFixtures.pattern) async throws -> [UInt8] {
        try await ClipFixtures.make("clip.mp4", source + x264)
    }

    /// The frames' durations add up to their starts, with no gap or overlap.
    static func expectContiguous(_ animation: DecodedAnimation, sourceLocation: SourceLocation = #_sourceLocation) {
        var expectedStart = 0
        for frame in animation.frames {
            #expect(frame.startMilliseconds == expectedStart, sourceLocation: sourceLocation)
            #expect(frame.durationMilliseconds > 0, sourceLocation: sourceLocation)
            expectedStart = frame.startMilliseconds + frame.durationMilliseconds
        }
    }

    struct Clip: Sendable, CustomTestStringConvertible {
        let file: String
        let arguments: [String]
        let format: AnimationFormat
        var testDescription: String { file }
    }

    static let thirtyFPSClips = [
        Clip(file: "clip.mp4", arguments: ClipFixtures.pattern + x264, format: .mp4),
        Clip(file: "clip.mov", arguments: ClipFixtures.pattern + x264, format: .quickTime),
        Clip(file: "vp9.webm", arguments: ClipFixtures.pattern + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"], format: .webm),
        Clip(file: "vp8.webm", arguments: ClipFixtures.pattern + ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"], format: .webm),
    ]

    @Test(arguments: thirtyFPSClips)
    func defaultWindowIsTheFirstThreeSecondsAtThirtyFPS(clip: Clip) async throws {
        let bytes = try await ClipFixtures.make(clip.file, clip.arguments)
        #expect(AnimationFormat.detect(bytes) == clip.format)
        #expect(MediaFormat.detect(bytes) == .animation(clip.format))
        let animation = try AnimationDecoder.decode(bytes)
        #expect(animation.format == clip.format)
        #expect((animation.width, animation.height) == (320, 240))
        #expect(animation.frames.count == 90)
        #expect(animation.durationMilliseconds == 3000)
        #expect(animation.frames.allSatisfy { [33, 34].contains($0.durationMilliseconds) })
        #expect(animation.frames.allSatisfy { ($0.image.width, $0.image.height) == (320, 240) })
        #expect(animation.loopCount == nil)
        Self.expectContiguous(animation)
    }

    @Test(.enabled(if: ClipFixtures.hasEncoder("libx265"), "this ffmpeg has no libx265 encoder to make an HEVC clip with"))
    func hevcClipDecodes() async throws {
        let bytes = try await ClipFixtures.make(
            "hevc.mp4", ClipFixtures.pattern + ["-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p"])
        #expect(AnimationFormat.detect(bytes) == .mp4)
        let animation = try AnimationDecoder.decode(bytes)
        #expect(animation.frames.count == 90)
        #expect(animation.durationMilliseconds == 3000)
        #expect((animation.width, animation.height) == (320, 240))
    }

    static let tenFPSAnimations = [
        Clip(file: "anim.gif", arguments: small10fps, format: .gif),
        Clip(file: "anim.png", arguments: small10fps + ["-f", "apng", "-plays", "0"], format: .apng),
        Clip(file: "anim.webp", arguments: small10fps + ["-c:v", "libwebp_anim", "-loop", "0", "-quality", "60"], format: .webp),
    ]

    @Test(arguments: tenFPSAnimations)
    func animatedImagesKeepTheirFrameTimes(clip: Clip) async throws {
        let bytes = try await ClipFixtures.make(clip.file, clip.arguments)
        #expect(AnimationFormat.detect(bytes) == clip.format)
        let animation = try AnimationDecoder.decode(bytes)
        #expect(animation.format == clip.format)
        #expect((animation.width, animation.height) == (160, 120))
        #expect(animation.frames.count == 30)
        #expect(animation.frames.allSatisfy { $0.durationMilliseconds == 100 })
        #expect(animation.durationMilliseconds == 3000)
        #expect(animation.loopCount == 0)
        Self.expectContiguous(animation)
        // A later window: frames 15...24 of the source.
        let window = try AnimationDecoder.decode(bytes, window: AnimationWindow(start: 1.5, duration: 1))
        #expect(window.frames.count == 10)
        #expect(window.durationMilliseconds == 1000)
        #expect(window.frames[0].image != animation.frames[0].image)
    }

    @Test func explicitWindowStartsAndEndsWhereAsked() async throws {
        let bytes = try await Self.h264Clip()
        let animation = try AnimationDecoder.decode(bytes, window: AnimationWindow(start: 1, duration: 1.5))
        #expect(animation.frames.count == 45)
        #expect(animation.durationMilliseconds == 1500)
        Self.expectContiguous(animation)
        // The window's first frame is the source's frame at 1 s, not its first.
        let whole = try AnimationDecoder.decode(bytes, window: AnimationWindow(start: 0, duration: 1.1))
        #expect(animation.frames[0].image == whole.frames[30].image)
    }

    @Test func frameRateCapDropsFramesAndKeepsTheTiming() async throws {
        let bytes = try await Self.h264Clip()
        let capped = try AnimationDecoder.decode(bytes, window: AnimationWindow(maxFrameRate: 10))
        #expect(capped.frames.count == 30)
        #expect(capped.frames.allSatisfy { $0.durationMilliseconds == 100 })
        #expect(capped.durationMilliseconds == 3000)

        // A 60 fps source under the default 30 fps cap: every other frame.
        let sixty = try await Self.h264Clip(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=60", "-t", "4"])
        let halved = try AnimationDecoder.decode(sixty)
        #expect(halved.frames.count == 90)
        #expect(halved.durationMilliseconds == 3000)
        #expect(halved.frames.allSatisfy { [33, 34].contains($0.durationMilliseconds) })

        // A cap that is no divisor of the source's rate stays under it.
        let uneven = try AnimationDecoder.decode(bytes, window: AnimationWindow(maxFrameRate: 24))
        #expect(uneven.frames.count <= 72 && uneven.frames.count >= 60)
        #expect(uneven.durationMilliseconds == 3000)
        Self.expectContiguous(uneven)
    }

    @Test func maxFramesEndsTheWindowEarly() async throws {
        let animation = try await AnimationDecoder.decode(try Self.h264Clip(), window: AnimationWindow(maxFrames: 20))
        #expect(animation.frames.count == 20)
        #expect(animation.durationMilliseconds == 667)
        Self.expectContiguous(animation)
    }

    @Test func workingSizeScalesFramesButReportsTheSourceSize() async throws {
        let animation = try await AnimationDecoder.decode(try Self.h264Clip(), window: AnimationWindow(duration: 0.5, workingSize: 160))
        #expect((animation.width, animation.height) == (320, 240))
        #expect(animation.frames.allSatisfy { ($0.image.width, $0.image.height) == (160, 120) })
    }

    @Test func displayMatrixRotationIsApplied() async throws {
        // Blue left half, red right half, stored landscape; then a rotation to show it with
        // (`rotate` metadata, which FFmpeg 5.1 writes only when copying the stream).
        let landscape = try await ClipFixtures.make("landscape.mp4", [
            "-f", "lavfi", "-i", "color=c=red:size=320x240:rate=30", "-t", "1",
            "-vf", "drawbox=x=0:y=0:w=160:h=240:color=blue:t=fill",
        ] + Self.x264)
        let rotated = try await ClipFixtures.make(
            "rotated.mp4", from: ("landscape.mp4", landscape), ["-i", "INPUT", "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let animation = try AnimationDecoder.decode(rotated)
        #expect((animation.width, animation.height) == (240, 320))
        let first = try #require(animation.frames.first).image
        #expect((first.width, first.height) == (240, 320))
        // The way FFmpeg's own player turns it (autorotation): which half ends on top depends on how
        // this FFmpeg writes the matrix, so ask it rather than assume.
        let upright = try await ClipFixtures.make(
            "upright.rgba", from: ("rotated.mp4", rotated), ["-i", "INPUT", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba"])
        #expect(upright.count == 240 * 320 * 4)
        guard upright.count == 240 * 320 * 4 else { return }
        let reference = RGBAImage(width: 240, height: 320, pixels: upright)
        for (x, y) in [(120, 40), (120, 280)] {
            let ours = first.pixel(x: x, y: y)
            let theirs = reference.pixel(x: x, y: y)
            #expect(abs(Int(ours.red) - Int(theirs.red)) < 40 && abs(Int(ours.blue) - Int(theirs.blue)) < 40, "(\(x), \(y)): \(ours) vs \(theirs)")
        }
        #expect(first.pixel(x: 120, y: 40) != first.pixel(x: 120, y: 280))
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() async throws {
        var bytes = try await Self.h264Clip()
        // Zero the coded frames: decoding them could not succeed, so a .tooLarge proves the check came first.
        let media = try #require(Self.boxPayload("mdat", in: bytes))
        for index in media { bytes[index] = 0 }
        #expect(throws: ProcessingError.tooLarge(width: 320, height: 240, limit: 320 * 240 - 1)) {
            try AnimationDecoder.decode(bytes, window: AnimationWindow(maxPixels: 320 * 240 - 1))
        }
        // Under the limit, the zeroed frames are damaged data.
        let damaged = #expect(throws: ProcessingError.self) { try AnimationDecoder.decode(bytes) }
        #expect(damaged?.code == "corrupt-image", "\(String(describing: damaged))")
        let webp = try await ClipFixtures.make("anim.webp", Self.small10fps + ["-c:v", "libwebp_anim"])
        #expect(throws: ProcessingError.tooLarge(width: 160, height: 120, limit: 1000)) {
            try AnimationDecoder.decode(webp, window: AnimationWindow(maxPixels: 1000))
        }
    }

    @Test func windowPastTheEndIsRefused() async throws {
        let clip = try await Self.h264Clip()
        let error = #expect(throws: ProcessingError.self) {
            try AnimationDecoder.decode(clip, window: AnimationWindow(start: 10))
        }
        #expect(error?.code == "no-frames")
        #expect(error?.localizedDescription.contains("lasts 4.000 s") == true, "\(String(describing: error?.localizedDescription))")
        let webp = try await ClipFixtures.make("anim.webp", Self.small10fps + ["-c:v", "libwebp_anim"])
        #expect(throws: ProcessingError.self) { try AnimationDecoder.decode(webp, window: AnimationWindow(start: 5)) }
        #expect(throws: ProcessingError.self) { try AnimationDecoder.decode(webp, window: AnimationWindow(duration: 0)) }
    }

    @Test func audioOnlyFileHasNoVideoStream() async throws {
        let bytes = try await ClipFixtures.make("audio.mp4", ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac"])
        #expect(AnimationFormat.detect(bytes) == .mp4)
        let error = #expect(throws: ProcessingError.self) { try AnimationDecoder.decode(bytes) }
        #expect(error?.code == "no-video")
        #expect(error?.localizedDescription.contains("only audio streams, no video stream") == true, "\(String(describing: error))")
    }

    @Test func quickTimeTagsBecomeExif() async throws {
        let bytes = try await ClipFixtures.make("tagged.mov", Self.small10fps + Self.x264 + [
            "-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.make=Apple",
            "-metadata", "com.apple.quicktime.model=iPhone 15 Pro",
            "-metadata", "com.apple.quicktime.creationdate=2024-05-01T12:34:56+0200",
            "-metadata", "creation_time=2024-05-01T10:34:56Z",
            "-metadata", "com.apple.quicktime.location.ISO6709=+37.3349-122.0090+010.000/",
        ])
        let exif = try #require(try AnimationDecoder.decode(bytes).exif)
        #expect(exif.make == "Apple" && exif.model == "iPhone 15 Pro")
        // The QuickTime date keeps the phone's offset; creation_time would be UTC only.
        #expect(exif.takenAt == "2024-05-01T12:34:56+02:00")
        #expect(exif.gpsLatitude == 37.3349 && exif.gpsLongitude == -122.0090 && exif.gpsAltitude == 10)
        #expect(exif.tags["QuickTime.com.apple.quicktime.make"] == "Apple")
    }

    @Test func androidLocationAndCreationTimeBecomeExif() async throws {
        let bytes = try await ClipFixtures.make("android.mp4", Self.small10fps + Self.x264 + [
            "-metadata", "location=-33.8568+151.2153/", "-metadata", "creation_time=2024-05-01T10:34:56Z",
        ])
        let exif = try #require(try AnimationDecoder.decode(bytes).exif)
        #expect(exif.make == nil && exif.takenAt == "2024-05-01T10:34:56Z")
        #expect(exif.gpsLatitude == -33.8568 && exif.gpsLongitude == 151.2153 && exif.gpsAltitude == nil)
        // A clip that says nothing has no EXIF, and animated images none either.
        await #expect(try AnimationDecoder.decode(try Self.h264Clip()).exif == nil)
    }

    @Test func clipMetadataTextIsReadStrictly() {
        #expect(ClipMetadata.takenAt(quickTime: "2024-05-01T10:34:56.000000Z") == "2024-05-01T10:34:56Z")
        #expect(ClipMetadata.takenAt(quickTime: "2024-05-01T10:34:56.250Z") == "2024-05-01T10:34:56.250Z")
        #expect(ClipMetadata.takenAt(quickTime: "2024-05-01T12:34:56-0700") == "2024-05-01T12:34:56-07:00")
        #expect(ClipMetadata.takenAt(quickTime: "yesterday") == nil)
        #expect(ClipMetadata.iso6709("+3720.094-12200.540/").map { ($0.latitude * 1000).rounded() / 1000 } == 37.335)
        #expect(ClipMetadata.iso6709("+95.0000-122.0090/") == nil)
        #expect(ClipMetadata.iso6709("+37.3349/") == nil)
        #expect(ClipMetadata.iso6709("+37.3349-122.0090CRSWGS_84/")?.longitude == -122.009)
    }

    @Test func clipWithAudioDecodesItsVideo() async throws {
        // Both sources bounded by their own duration: a `-t` between two inputs would bound only the second.
        let bytes = try await ClipFixtures.make("av.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4", "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:a", "aac",
        ] + Self.x264)
        #expect(try AnimationDecoder.decode(bytes).frames.count == 90)
    }

    @Test(arguments: [
        Clip(file: "clip.mp4", arguments: ClipFixtures.pattern + x264, format: .mp4),
        Clip(file: "clip.webm", arguments: ClipFixtures.pattern + ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8"], format: .webm),
        Clip(file: "anim.gif", arguments: small10fps, format: .gif),
        Clip(file: "anim.png", arguments: small10fps + ["-f", "apng"], format: .apng),
        Clip(file: "anim.webp", arguments: small10fps + ["-c:v", "libwebp_anim"], format: .webp),
    ])
    func truncatedInputIsReportedAsTruncated(clip: Clip) async throws {
        let bytes = try await ClipFixtures.make(clip.file, clip.arguments)
        let half = Array(bytes.prefix(bytes.count / 2))
        let error = #expect(throws: ProcessingError.self) { try AnimationDecoder.decode(half) }
        #expect(error?.code == "truncated", "\(String(describing: error))")
    }

    @Test func randomBytesBehindAnMP4HeaderFailCleanly() throws {
        var state: UInt64 = 0xC0FFEE
        let noise = (0 ..< 20_000).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let ftyp: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        // Loose noise: the box walk sees a box that runs past the data, or FFmpeg rejects it.
        let loose = #expect(throws: ProcessingError.self) { try AnimationDecoder.decode(ftyp + noise) }
        #expect(["truncated", "corrupt-image"].contains(loose?.code ?? ""), "\(String(describing: loose))")
        // Noise in a well-formed mdat box: complete, but there is no movie in it.
        let size = noise.count + 8
        let boxed = ftyp + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array("mdat".utf8) + noise
        let error = #expect(throws: ProcessingError.self) { try AnimationDecoder.decode(boxed) }
        #expect(error?.code == "corrupt-image", "\(String(describing: error))")
        #expect(error?.localizedDescription.contains("MP4") == true)
    }

    @concurrent static func decodeOffTheCaller(_ bytes: [UInt8], window: AnimationWindow) async throws -> DecodedAnimation {
        try AnimationDecoder.decode(bytes, window: window)
    }

    @Test func decodesTheSameFromConcurrentTasks() async throws {
        let bytes = try await Self.h264Clip()
        let window = AnimationWindow(duration: 1)
        async let first = Self.decodeOffTheCaller(bytes, window: window)
        async let second = Self.decodeOffTheCaller(bytes, window: window)
        let (a, b) = try await (first, second)
        #expect(a.frames.count == 30)
        #expect(a == b)
    }

    /// The payload range of the first top-level ISO box of `type`.
    static func boxPayload(_ type: String, in bytes: [UInt8]) -> Range<Int>? {
        var position = 0
        while position + 8 <= bytes.count {
            let size = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard size >= 8 else { return nil }
            if bytes[position + 4 ..< position + 8].elementsEqual(type.utf8) { return position + 8 ..< min(bytes.count, position + size) }
            position += size
        }
        return nil
    }
}
