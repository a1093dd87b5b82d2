import Foundation
import TestProcessSupport
import Synchronization
import Testing

/// Clips and animations made at test time with the `ffmpeg` CLI (`make test-deps` installs it), so
/// every expectation is exact and no media file is committed.
enum ClipFixtures {
    struct MissingFFmpeg: Error, CustomStringConvertible {
        var description: String {
            "the ffmpeg CLI (ffmpeg, ffprobe) is not on PATH: the animation tests make and check their clips with it (apt-get install ffmpeg, or make test-deps)"
        }
    }

    struct FFmpegFailed: Error, CustomStringConvertible {
        let arguments: [String]
        let output: String
        var description: String { "ffmpeg \(arguments.joined(separator: " ")) failed:\n\(output)" }
    }

    /// The `ffmpeg` executable on PATH, nil when there is none.
    static let ffmpeg: String? = executable("ffmpeg")

    /// The `ffprobe` executable on PATH (it comes with ffmpeg), nil when there is none.
    static let ffprobe: String? = executable("ffprobe")

    private static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The 30 fps test pattern most clips are made from.
    static let pattern = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "4"]

    /// Runs ffmpeg with `arguments` writing a file named `name` and returns its bytes; fails the test
    /// with a clear message when ffmpeg is missing or fails.
    static func make(_ name: String, _ arguments: [String]) async throws -> [UInt8] {
        try await make(name, from: nil, arguments)
    }

    /// Like `make(_:_:)`, with `input` written to a file named `inputName` that `arguments` name
    /// with `-i INPUT` (the placeholder is replaced by the file's path).
    static func make(_ name: String, from input: (name: String, bytes: [UInt8])?, _ arguments: [String]) async throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent(name)
        var arguments = arguments
        if let input {
            let inputURL = folder.appendingPathComponent(input.name)
            try Data(input.bytes).write(to: inputURL)
            arguments = arguments.map { $0 == "INPUT" ? inputURL.path : $0 }
        }
        let all = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments + [output.path]
        let result = try await run(all)
        guard result.status == 0 else { throw FFmpegFailed(arguments: all, output: result.output) }
        return try [UInt8](Data(contentsOf: output))
    }

    /// ffprobe's JSON answer (`-of json`) about `bytes`, written to a file named `name`, with
    /// `arguments` (`-show_streams`, `-count_frames`...); fails the test like `make` does.
    static func probe(_ bytes: [UInt8], name: String, _ arguments: [String]) async throws -> [String: Any] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        let all = ["-hide_banner", "-loglevel", "error", "-of", "json"] + arguments + [file.path]
        let result = try await run(all, tool: ffprobe)
        guard result.status == 0 else { throw FFmpegFailed(arguments: ["(ffprobe)"] + all, output: result.output) }
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
        return try #require(json as? [String: Any], "ffprobe's answer is not a JSON object: \(result.output)")
    }

    /// Whether this ffmpeg has the encoder (libx265, libwebp_anim...); false without ffmpeg.
    /// For test traits, which are evaluated synchronously before the tests start (so the only blocking wait left here).
    static func hasEncoder(_ name: String) -> Bool {
        guard let ffmpeg else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-hide_banner", "-encoders"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return false }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first == Substring(name) }
    }

    /// Set once ffmpeg has exited, so the watchdog does not signal a reused process id.
    private final class FinishedFlag: Sendable {
        private let state = Mutex(false)
        var isSet: Bool { state.withLock { $0 } }
        func set() { state.withLock { $0 = true } }
    }

    private static func run(_ arguments: [String], tool: String? = ffmpeg) async throws -> (status: Int32, output: String) {
        guard let tool else { throw MissingFFmpeg() }
        let process = WatchedProcess()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        // Output to a file, read after the exit: reading a pipe would block a thread of the test pool.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("ffmpeg-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A wrong argument can make ffmpeg read an endless source: stop it rather than the suite's time limit.
        let pid = process.processIdentifier
        let finished = FinishedFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 300) { if !finished.isSet { kill(pid, SIGKILL) } }
        defer { finished.set() }
        await process.exited()
        try output.close()
        return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
}
