import Foundation
import TestProcessSupport
import Processing
import SampleImages
import Testing

/// Clips through the `catalog` binary: a phone's container tags become the entry's EXIF, `--clip` and
/// `--max-frames` choose the part kept with the entry (shown by `show`, changed by `recut`), and a file
/// without video fails with `no-video`. The clips are made with the ffmpeg CLI.
@Suite(.needsModel, .timeLimit(.minutes(15)))
struct ClipImportCommandTests {
    /// Runs `ffmpeg -y ARGUMENTS PATH`; fails the test with ffmpeg's output when it does.
    static func ffmpeg(_ arguments: [String], to path: String) async throws {
        let process = WatchedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-y"] + arguments + [path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = await errors.fileHandleForReading.readUntilClosed()
        await process.exited()
        try #require(process.terminationStatus == 0, "ffmpeg failed: \(String(decoding: output, as: UTF8.self))")
    }

    /// Four seconds of a moving test pattern, tagged as an iPhone tags its MOVs.
    static func iPhoneClip(at path: String) async throws {
        try await ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10:duration=4", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags",
            "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15 Pro",
            "-metadata", "com.apple.quicktime.creationdate=2024-05-01T12:34:56+0200",
            "-metadata", "com.apple.quicktime.location.ISO6709=+37.3349-122.0090+010.000/",
        ], to: path)
    }

    @Test func aClipKeepsItsTagsAndItsPart() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("clips"), withIntermediateDirectories: true)
        try await Self.iPhoneClip(at: folder.path("clips/IMG_0001.MOV"))
        let scenario = RecutScenario(catalog: folder.path("c.sqlite"), folder: folder)

        let malformed = try await scenario.run(["import", folder.path("clips"), "--clip", "2"])
        #expect(malformed.status == 64)
        #expect(malformed.stderr.contains("--clip must be START,DURATION in seconds, e.g. 2,3"), "\(malformed.stderr)")
        #expect(try await scenario.run(["import", folder.path("clips"), "--max-frames", "0"]).status == 64)

        let imported = try await scenario.run(["import", folder.path("clips"), "--clip", "1,1"])
        #expect(imported.status == 0, "\(imported.stderr)")
        var entry = try await scenario.entry()
        let exif = try #require(entry["exif"] as? [String: Any])
        #expect(exif["make"] as? String == "Apple" && exif["model"] as? String == "iPhone 15 Pro", "\(exif)")
        #expect(exif["takenAt"] as? String == "2024-05-01T12:34:56+02:00", "\(exif)")
        #expect(exif["gpsLatitude"] as? Double == 37.3349 && exif["gpsLongitude"] as? Double == -122.009, "\(exif)")
        let clip = try #require(entry["clip"] as? [String: Any], "\(entry)")
        #expect(clip["startSeconds"] as? Double == 1 && clip["durationSeconds"] as? Double == 1 && clip["maxFrames"] as? Int == 90)
        let animation = try #require((entry["sticker"] as? [String: Any])?["animation"] as? [String: Any])
        #expect(animation["durationMs"] as? Int == 1000, "\(animation)")
        let show = try await scenario.run(["show", "1"])
        #expect(show.stdout.contains("Clip") && show.stdout.contains("1 s + 1 s, at most 90 frames"), "\(show.stdout)")
        #expect(show.stdout.contains("Apple") && show.stdout.contains("iPhone 15 Pro"), "\(show.stdout)")

        // A reprocess keeps the part; a recut changes it, and `--clip default` goes back.
        #expect(try await scenario.run(["reprocess", "--all", "--quiet"]).status == 0)
        await #expect((try scenario.entry()["clip"] as? [String: Any])?["startSeconds"] as? Double == 1)
        let recut = try await scenario.run(["recut", "1", "--clip", "0.5,2", "--max-frames", "12"])
        #expect(recut.status == 0, "\(recut.stderr)")
        #expect(recut.stdout.contains("0.5 s + 2 s, at most 12 frames"), "\(recut.stdout)")
        entry = try await scenario.entry()
        #expect(((entry["sticker"] as? [String: Any])?["animation"] as? [String: Any])?["frames"] as? Int == 12, "\(entry)")
        let pastEnd = try await scenario.run(["recut", "1", "--clip", "10,2"])
        #expect(pastEnd.status == 65 && pastEnd.stderr.contains("no-frames"), "\(pastEnd.status) \(pastEnd.stderr)")
        let reset = try await scenario.run(["recut", "1", "--clip", "default"])
        #expect(reset.status == 0, "\(reset.stderr)")
        entry = try await scenario.entry()
        #expect(entry["clip"] is NSNull, "\(entry)")
        #expect(((entry["sticker"] as? [String: Any])?["animation"] as? [String: Any])?["durationMs"] as? Int == 3000)
    }

    @Test func aFileWithoutVideoFailsWithNoVideo() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("clips"), withIntermediateDirectories: true)
        try await Self.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac"], to: folder.path("clips/voice.m4a"))
        let scenario = RecutScenario(catalog: folder.path("c.sqlite"), folder: folder)
        let imported = try await scenario.run(["import", folder.path("clips"), "--json"])
        #expect(imported.status == 65 || imported.status == 1, "\(imported.status)")
        #expect(imported.stdout.contains("\"no-video\""), "\(imported.stdout)")
    }

    @Test func aLivePhotosHalvesNameEachOther() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("phone"), withIntermediateDirectories: true)
        let photo = SampleScene(width: 320, height: 240, background: .gradient(top: RGB(150, 200, 235), bottom: RGB(60, 110, 70)), shape: .star,
                                subjectColor: RGB(240, 120, 20), seed: 5).renderPhoto()
        _ = try folder.write(try JPEGCodec.encode(photo), to: "phone/IMG_0001.JPG")
        try await Self.iPhoneClip(at: folder.path("phone/img_0001.mov"))
        let scenario = RecutScenario(catalog: folder.path("c.sqlite"), folder: folder)
        let imported = try await scenario.run(["import", folder.path("phone"), "--jobs", "1"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let first = try await scenario.entry(1), second = try await scenario.entry(2)
        let still = (first["format"] as? String) == "jpeg" ? 1 : 2, clip = 3 - still
        func liveLine(_ id: Int) async throws -> String {
            try await scenario.run(["show", "\(id)"]).stdout.split(separator: "\n").first { $0.contains("Live Photo") }
                .map { $0.split(separator: " ").joined(separator: " ") } ?? ""
        }
        #expect(try await liveLine(still) == "Live Photo clip #\(clip)")
        #expect(try await liveLine(clip) == "Live Photo still #\(still)")
        let live = try #require(first["livePhoto"] as? [String: Any], "\(first)")
        #expect(live["stillId"] as? Int == still && live["clipId"] as? Int == clip)
        #expect((second["livePhoto"] as? [String: Any])?["stillId"] as? Int == still)
    }
}
