import Foundation
import TestProcessSupport
import SampleImages
import Testing

/// The whole animated job as a person runs it: a folder of an MP4, a MOV, a GIF, an animated WebP
/// and a Live Photo (a JPEG with a MOV of the same name) imported into a pack, then exported for
/// Telegram and WhatsApp, each file checked against the app's rules by ffprobe and libwebp.
@Suite(.needsModel, .timeLimit(.minutes(15)))
struct AnimatedPackCommandTests {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// An orange disc crossing a blue background, `seconds` long at 15 fps, written by ffmpeg as `name`.
    static func clip(_ name: String, in folder: TemporaryFolder, seconds: Double = 2, codec: [String]) async throws {
        let disc = "lt(hypot(X-(70+T*70),Y-120),55)"
        let scene = "color=c=black:s=320x240:r=15:d=\(seconds),format=rgb24,"
            + "geq=r='if(\(disc),240,40)':g='if(\(disc),130,90)':b='if(\(disc),30,170)'"
        let process = WatchedProcess()
        process.executableURL = URL(fileURLWithPath: try #require(ffmpeg))
        process.arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", scene] + codec + [folder.path(name)]
        try process.run()
        await process.exited()
        #expect(process.terminationStatus == 0, "ffmpeg made \(name)")
    }

    /// `catalog ARGUMENTS`'s standard output as JSON.
    static func json(_ arguments: [String], in folder: TemporaryFolder) async throws -> Any {
        let run = try await CLI.run(arguments, in: folder)
        #expect(run.status == 0, "catalog \(arguments.joined(separator: " ")): \(run.stderr)")
        return try JSONSerialization.jsonObject(with: run.stdoutData)
    }

    /// A program's standard output.
    static func tool(_ path: String, _ arguments: [String]) async throws -> String {
        let process = WatchedProcess()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = await output.fileHandleForReading.readUntilClosed()
        await process.exited()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.enabled(if: ffmpeg != nil, "the ffmpeg CLI (a test dependency) makes the clips"))
    func clipsGIFsWebPsAndALivePhotoBecomeAnimatedPacksForTelegramAndWhatsApp() async throws {
        let folder = try TemporaryFolder()
        let media = folder.path("media")
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        let h264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p"]
        try await Self.clip("media/walk.mp4", in: folder, codec: h264)
        try await Self.clip("media/turn.mov", in: folder, seconds: 4, codec: h264)
        try await Self.clip("media/wave.gif", in: folder, codec: [])
        try await Self.clip("media/spin.webp", in: folder, codec: ["-c:v", "libwebp_anim", "-loop", "0"])
        let still = SampleScene(
            width: 320, height: 240, background: .gradient(top: RGB(60, 100, 170), bottom: RGB(40, 80, 150)), shape: .ellipse,
            subjectColor: RGB(240, 130, 30), centerX: 0.4, centerY: 0.5, radius: 0.25, seed: 3)
        try Data(try SamplePhotos.jpeg(still, exif: nil)).write(to: URL(fileURLWithPath: folder.path("media/IMG_0001.JPG")))
        try await Self.clip("media/IMG_0001.mov", in: folder, codec: h264)

        let imported = try await CLI.run(["--catalog", "c.sqlite", "import", media, "--pack", "moving", "--json"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let entries = try await Self.json(["--catalog", "c.sqlite", "list", "--json"], in: folder) as? [[String: Any]] ?? []
        #expect(entries.count == 6)
        var animated = 0
        for entry in entries {
            let id = try #require(entry["id"] as? Int)
            let detail = try await Self.json(["--catalog", "c.sqlite", "show", "\(id)", "--json"], in: folder) as? [String: Any] ?? [:]
            let sticker = detail["sticker"] as? [String: Any]
            if sticker?["animation"] != nil { animated += 1 }
            let path = entry["path"] as? String ?? ""
            if path.hasSuffix("IMG_0001.JPG") || path.hasSuffix("IMG_0001.mov") {
                let link = try #require(detail["livePhoto"] as? [String: Any], "the Live Photo's halves name each other")
                #expect(link["stillId"] as? Int != link["clipId"] as? Int && [link["stillId"] as? Int, link["clipId"] as? Int].contains(id))
            }
        }
        #expect(animated == 5, "every clip and animation moves; the Live Photo's still stays still")

        let telegram = try await Self.json(["--catalog", "c.sqlite", "export", "moving", "--format", "telegram", "-o", "out", "--json"], in: folder)
        let parts = (telegram as? [String: Any])?["parts"] as? [[String: Any]] ?? []
        #expect(parts.compactMap { $0["name"] as? String } == ["moving", "moving-animated"])
        let videos = try FileManager.default.contentsOfDirectory(atPath: folder.path("out/moving-animated.telegram")).filter { $0.hasSuffix(".webm") }
        #expect(videos.count == 5)
        for video in videos {
            let probe = try await Self.tool("/usr/bin/ffprobe", [
                "-v", "error", "-count_frames", "-show_entries", "stream=codec_type,codec_name,width,height,nb_read_frames:stream_tags=alpha_mode:format=duration",
                "-of", "json", folder.path("out/moving-animated.telegram/\(video)"),
            ])
            let info = try #require(try JSONSerialization.jsonObject(with: Data(probe.utf8)) as? [String: Any])
            let streams = info["streams"] as? [[String: Any]] ?? []
            #expect(streams.count == 1 && streams.first?["codec_name"] as? String == "vp9", "\(video): \(streams)")
            let width = streams.first?["width"] as? Int ?? 0, height = streams.first?["height"] as? Int ?? 0
            #expect(max(width, height) == 512)
            #expect(((streams.first?["tags"] as? [String: Any])?["alpha_mode"] as? String) == "1", "\(video) has an alpha channel")
            let duration = Double((info["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 99
            #expect(duration <= 3.0)
            let frames = Double(streams.first?["nb_read_frames"] as? String ?? "") ?? 999
            #expect(frames / duration <= 30.5)
            let size = try FileManager.default.attributesOfItem(atPath: folder.path("out/moving-animated.telegram/\(video)"))[.size] as? Int ?? .max
            #expect(size <= 256_000)
        }

        let whatsapp = try await CLI.run(["--catalog", "c.sqlite", "export", "moving", "--format", "whatsapp", "-o", "out"], in: folder)
        // One still sticker: WhatsApp's still set would be under its minimum of 3, and it says so.
        #expect(whatsapp.status == 65 && whatsapp.stderr.contains("still set would have 1"), "\(whatsapp.stderr)")
        let stills = try await CLI.run(["--catalog", "c.sqlite", "pack", "remove", "moving", "\(try #require(entries.first { ($0["path"] as? String)?.hasSuffix(".JPG") == true }?["id"] as? Int))"], in: folder)
        #expect(stills.status == 0, "\(stills.stderr)")
        let report = try await Self.json(["--catalog", "c.sqlite", "export", "moving", "--format", "whatsapp", "-o", "out", "--json"], in: folder)
        let files = ((report as? [String: Any])?["parts"] as? [[String: Any]])?.first?["files"] as? [[String: Any]] ?? []
        let moving = files.filter { $0["animation"] != nil }
        #expect(moving.count == 5)
        for file in moving {
            #expect((file["bytes"] as? Int ?? .max) <= 500_000 && file["width"] as? Int == 512 && file["height"] as? Int == 512)
            #expect(((file["animation"] as? [String: Any])?["durationMs"] as? Int ?? .max) <= 10_000)
        }
    }
}
