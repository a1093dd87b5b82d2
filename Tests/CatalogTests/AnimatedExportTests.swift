import Foundation
import TestProcessSupport
import Processing
import Testing

@testable import Catalog

/// Packs with moving stickers, exported for each platform and read back with libwebp's and FFmpeg's
/// own readers: the file type, the canvas, the byte limit, the running time and frame times, the
/// split of a mixed pack where a set is either still or moving, and byte-identical repeats.
@Suite(.timeLimit(.minutes(15))) struct AnimatedExportTests {
    /// A disc crossing a transparent 240×180 canvas: `count` frames of `milliseconds` each.
    static func animation(seed: Int, count: Int, milliseconds: Int) throws -> (png: [UInt8], animation: AnimatedSticker) {
        let width = 240, height = 180
        let frames = (0..<count).map { index in
            var image = RGBAImage(width: width, height: height, red: 0, green: 0, blue: 0, alpha: 0)
            let cx = 50 + 140 * index / max(1, count - 1), cy = 90
            for y in 0..<height {
                for x in 0..<width where (x - cx) * (x - cx) + (y - cy) * (y - cy) < 45 * 45 {
                    let offset = (y * width + x) * 4
                    image.pixels[offset] = UInt8(truncatingIfNeeded: seed * 60 + x)
                    image.pixels[offset + 1] = UInt8(truncatingIfNeeded: 40 + y)
                    image.pixels[offset + 2] = UInt8(truncatingIfNeeded: 180 - seed * 30)
                    image.pixels[offset + 3] = 255
                }
            }
            return image
        }
        let animation = try AnimatedSticker(frames: frames, durations: [Int](repeating: milliseconds, count: count))
        return (try PNGCodec.encode(frames[0]), animation)
    }

    @discardableResult
    /// A pack of `stills` still and `moving` moving stickers, stills first; the second moving one runs 4 s.
    func makePack(_ repository: any CatalogStore, stills: Int, moving: Int) async throws -> [Int64] {
        var ids: [Int64] = []
        for index in 0..<stills {
            ids.append(try await record(repository, png: try stickerPNG(width: 320, height: 240, seed: index), width: 320, height: 240, seed: index))
        }
        for index in 0..<moving {
            let (png, animation) = try Self.animation(seed: index, count: index == 1 ? 40 : 24, milliseconds: index == 1 ? 100 : 50)
            let photo = ProcessedPhoto(
                format: .mp4, width: 1920, height: 1080, exif: sampleExif, sticker: StickerImage(png: png, width: 240, height: 180),
                palette: Palette(), pipelineVersion: 1, settings: StickerSettings(size: 240, paletteColors: 2), animation: animation)
            guard case .imported(let id) = try await repository.recordProcessed(photo, sha256: sha(20_000 + index), source: source("/clips/\(index).mp4")) else {
                Issue.record("the moving sticker was not recorded"); return ids
            }
            ids.append(id)
        }
        _ = try await repository.createPack(name: "party", title: "Party", author: "Ana")
        _ = try await repository.addToPack("party", ids: ids, emoji: "🎉")
        return ids
    }

    func export(_ repository: any CatalogStore, _ format: ExportFormat, to folder: URL, stills: Bool = false) async throws -> ExportReport {
        let source = try await repository.packSource(named: "party")
        return try await Exporter(options: ExportOptions(format: format, outputDirectory: folder, stills: stills)).run(source)
    }

    /// The animation in `bytes` as a reader other than ours sees it.
    func decode(_ bytes: [UInt8]) throws -> DecodedAnimation {
        try AnimationDecoder.decode(bytes, window: AnimationWindow(duration: 60, maxFrames: 10_000, maxFrameRate: 1000, workingSize: nil))
    }

    @Test("whatsapp: a mixed pack becomes a still and an animated .wastickers; animated WebP 512×512, ≤ 500 KB, ≤ 10 s, frames ≥ 8 ms", arguments: StoreKind.allCases)
    func whatsapp(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            let ids = try await makePack(repository, stills: 3, moving: 3)
            let report = try await export(repository, .whatsapp, to: directory.appending(path: "out"))
            #expect(report.ok && report.parts.map(\.name) == ["party", "party-animated"])
            let still = try exportedFiles(at: directory.appending(path: "out/party.wastickers"))
            #expect(String(decoding: try #require(still["title.txt"]), as: UTF8.self) == "Party")
            let moving = try exportedFiles(at: directory.appending(path: "out/party-animated.wastickers"))
            #expect(String(decoding: try #require(moving["title.txt"]), as: UTF8.self) == "Party (animated)")
            let manifest = try checkManifest(moving)
            let stickers = try #require(manifest["stickers"] as? [[String: Any]])
            #expect(stickers.compactMap { ($0["id"] as? Int).map(Int64.init) } == Array(ids[3...]))
            for sticker in stickers {
                let file = try #require(sticker["file"] as? String)
                let bytes = try #require(moving[file])
                #expect(bytes.count <= 500_000)
                let decoded = try decode(bytes)
                #expect(decoded.format == .webp && decoded.width == 512 && decoded.height == 512)
                #expect(decoded.frames.count > 1 && decoded.durationMilliseconds <= 10_000)
                #expect(decoded.frames.allSatisfy { $0.durationMilliseconds >= 8 })
            }
            #expect(try #require(moving["tray.png"]).count <= 50_000)
        }
    }

    @Test(
        "telegram: a mixed pack becomes a still and a video set; WebM VP9 with alpha, one side 512, ≤ 3 s, ≤ 30 fps, ≤ 256 KB, no audio",
        .enabled(if: FFprobe.path != nil, "ffprobe (Debian's ffmpeg, a test dependency) checks the WebM files"),
        arguments: StoreKind.allCases)
    func telegram(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            try await makePack(repository, stills: 1, moving: 2)
            let report = try await export(repository, .telegram, to: directory.appending(path: "out"))
            #expect(report.ok && report.parts.map(\.name) == ["party", "party-animated"])
            let files = try exportedFiles(at: directory.appending(path: "out/party-animated.telegram"))
            try checkManifest(files)
            #expect(String(decoding: try #require(files["title.txt"]), as: UTF8.self) == "Party (animated)\n")
            let fits = report.parts[1].files.filter { $0.id != nil }
            #expect(fits.count == 2 && fits.allSatisfy { $0.file.hasSuffix(".webm") && $0.bytes <= 256_000 })
            #expect(fits.contains { $0.animation?.steps.contains("4.0 → 3.0 s") == true })
            for fit in fits {
                let url = directory.appending(path: "out/party-animated.telegram/\(fit.file)")
                let probe = try await FFprobe.streams(of: url)
                #expect(probe.count == 1, "one stream, video, no audio")
                let video = try #require(probe.first)
                #expect(video["codec_type"] as? String == "video" && video["codec_name"] as? String == "vp9")
                let width = try #require(video["width"] as? Int), height = try #require(video["height"] as? Int)
                #expect(max(width, height) == 512 && min(width, height) <= 512)
                #expect((video["tags"] as? [String: Any])?["alpha_mode"] as? String == "1" || (video["tags"] as? [String: Any])?["ALPHA_MODE"] as? String == "1")
                let duration = try await FFprobe.duration(of: url)
                #expect(duration > 0 && duration <= 3.0)
                let counted = try #require(video["nb_read_frames"] as? String)
                let frames = try #require(Double(counted))
                #expect(frames / duration <= 30.5)
                // A steady rate of at most 30, as the file says it and as its frames keep it.
                let rate = try #require(video["r_frame_rate"] as? String).split(separator: "/").compactMap { Double($0) }
                #expect(rate.count == 2 && rate[0] / rate[1] <= 30, "r_frame_rate \(video["r_frame_rate"] ?? "")")
                let packets = try await FFprobe.json(["-select_streams", "v", "-show_entries", "packet=pts_time", url.path])["packets"] as? [[String: Any]] ?? []
                let starts = packets.compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }.sorted()
                let tick = rate.count == 2 ? rate[1] / rate[0] : 0
                #expect(zip(starts.dropFirst(), starts).allSatisfy { abs($0 - $1 - tick) <= 0.0011 }, "\(fit.file): \(starts.prefix(12))")
            }
        }
    }

    @Test("signal: one pack, moving stickers as APNG 512×512, ≤ 300 KB, ≤ 3 s (a 4 s clip is cut, and the report says so)", arguments: StoreKind.allCases)
    func signal(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            try await makePack(repository, stills: 1, moving: 2)
            let report = try await export(repository, .signal, to: directory.appending(path: "out"))
            #expect(report.ok && report.parts.count == 1)
            let fits = report.parts[0].files
            #expect(fits.filter { $0.animation != nil }.count == 2)
            #expect(fits.contains { $0.animation?.steps.contains("4.0 → 3.0 s") == true })
            let files = try exportedFiles(at: directory.appending(path: "out/party.signal"))
            try checkManifest(files)
            for fit in fits where fit.animation != nil {
                let bytes = try #require(files[fit.file])
                #expect(fit.file.hasSuffix(".png") && bytes.count <= 300_000)
                let decoded = try decode(bytes)
                #expect(decoded.format == .apng && decoded.width == 512 && decoded.height == 512)
                #expect(decoded.frames.count > 1 && decoded.durationMilliseconds <= 3_000)
            }
        }
    }

    @Test("png: the first frame as the sticker and the whole animation as NNN-ID.apng beside it; imessage APNG under 500 KB", arguments: StoreKind.allCases)
    func plainAndIMessage(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            let ids = try await makePack(repository, stills: 1, moving: 1)
            _ = try await export(repository, .png, to: directory.appending(path: "out"))
            let files = try exportedFiles(at: directory.appending(path: "out/party"))
            let manifest = try checkManifest(files)
            #expect(files["002-\(ids[1]).png"] == (try await repository.packSource(named: "party")).items[1].png)
            let apng = try #require(files["002-\(ids[1]).apng"])
            #expect(try decode(apng).frames.count == 24)
            let stickers = try #require(manifest["stickers"] as? [[String: Any]])
            #expect((stickers[1]["companions"] as? [[String: Any]])?.first?["file"] as? String == "002-\(ids[1]).apng")

            let report = try await export(repository, .imessage, to: directory.appending(path: "out"))
            let moving = try #require(report.parts[0].files.first { $0.animation != nil })
            #expect(moving.ok && moving.bytes <= 499_999 && moving.width == 408)
        }
    }

    @Test("a mixed pack whose animated set is under WhatsApp's minimum is refused, naming the set, and the pack says so beforehand; --stills exports one still pack", arguments: StoreKind.allCases)
    func setMinimumAndStills(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            try await makePack(repository, stills: 3, moving: 1)
            // The pack says so before any export: what each app takes as it is.
            let detail = try await repository.pack(named: "party")
            #expect(detail.items.map(\.animated) == [false, false, false, true])
            let checks = Dictionary(uniqueKeysWithValues: detail.platforms.map { ($0.format, $0) })
            #expect(checks[.telegram]?.ok == true && checks[.telegram]?.sets == 2)
            #expect(checks[.whatsapp]?.ok == false && checks[.whatsapp]?.note?.contains("animated set would have 1") == true)
            #expect(checks[.signal] == PlatformCheck(format: .signal, ok: true, sets: 1, note: nil))
            #expect(checks[.imessage]?.ok == true)
            await #expect(throws: ExportError.tooFewInSet(format: .whatsapp, animated: true, count: 1, minimum: 3)) {
                try await export(repository, .whatsapp, to: directory.appending(path: "out"))
            }
            #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "out").path))
            let report = try await export(repository, .whatsapp, to: directory.appending(path: "out"), stills: true)
            #expect(report.parts.map(\.count) == [4] && report.parts[0].files.allSatisfy { $0.animation == nil })
        }
    }

    @Test("moving exports are byte-identical when made twice", arguments: StoreKind.allCases)
    func reproducible(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            try await makePack(repository, stills: 0, moving: 3)
            for format in [ExportFormat.whatsapp, .signal] {
                let first = try await export(repository, format, to: directory.appending(path: "a"))
                let second = try await export(repository, format, to: directory.appending(path: "b"))
                let name = URL(fileURLWithPath: first.parts[0].path).lastPathComponent
                #expect(URL(fileURLWithPath: second.parts[0].path).lastPathComponent == name)
                #expect(try exportedFiles(at: directory.appending(path: "a/\(name)")) == exportedFiles(at: directory.appending(path: "b/\(name)")))
            }
        }
    }
}

/// Debian's ffprobe, to read exported WebM files with a reader that is not ours.
enum FFprobe {
    static let path: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":").map { "\($0)/ffprobe" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    static func json(_ arguments: [String]) async throws -> [String: Any] {
        let process = WatchedProcess()
        process.executableURL = URL(fileURLWithPath: try #require(path))
        process.arguments = ["-v", "error", "-print_format", "json"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = await output.fileHandleForReading.readUntilClosed()
        await process.exited()
        let object = try JSONSerialization.jsonObject(with: data)
        return try #require(object as? [String: Any])
    }

    /// Every stream, with its frames counted by decoding.
    static func streams(of url: URL) async throws -> [[String: Any]] {
        let streams = try await json(["-count_frames", "-show_streams", url.path])["streams"]
        return try #require(streams as? [[String: Any]])
    }

    /// The container's running time in seconds.
    static func duration(of url: URL) async throws -> Double {
        let container = try await json(["-show_format", url.path])["format"]
        let format = try #require(container as? [String: Any])
        let duration = try #require(format["duration"] as? String)
        return try #require(Double(duration))
    }
}

