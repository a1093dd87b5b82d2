import Foundation
import SampleImages
import TestProcessSupport
import Testing

/// What a run of the `catalog` binary did.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
    /// stdout as bytes (for binary output such as `cutout -o -`).
    let stdoutData: Data

    /// The stdout lines parsed as JSON objects (NDJSON).
    var jsonLines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// The whole stdout parsed as one JSON value.
    var json: Any? {
        try? JSONSerialization.jsonObject(with: Data(stdout.utf8))
    }
}

/// A temporary folder for one test, removed when the value goes away (also when the test fails).
/// Sendable: its one property never changes, and its files are the test's to order.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes bytes to `name` (creating folders) and returns the path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let target = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: target)
        return target.path
    }

    /// The demo's sample photos, small so debug builds stay quick; returns their folder.
    @discardableResult
    func writeSamples(in folder: String = "photos") throws -> String {
        for photo in try SamplePhotos.demoStills(width: 320, height: 240) {
            try write(photo.bytes, to: folder + "/" + photo.name)
        }
        return path(folder)
    }
}

/// Runs the built `catalog` binary as a user or a script would.
enum CLI {
    /// The `catalog` executable SwiftPM built beside this test bundle (or $CATALOG_BIN).
    static let binary: URL = {
        if let explicit = ProcessInfo.processInfo.environment["CATALOG_BIN"] {
            return URL(fileURLWithPath: explicit)
        }
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        var folder = executable.deletingLastPathComponent()
        // The test executable may sit inside an .xctest bundle folder.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("catalog").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("catalog")
    }()

    /// Copies the binary to `destination` with `cp` in a process of its own. A copy written from this
    /// process would hold a writable descriptor that a test forking at the same moment inherits, and
    /// running the copy then fails with "Text file busy" (ETXTBSY).
    static func copyBinary(to destination: URL) async throws {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let copy = WatchedProcess()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = ["--", binary.path, destination.path]
        try await copy.runToExit()
        guard copy.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
        }
    }

    /// The clean environment runs get (no inherited CATALOG_PATH): HOME is the test's folder, and
    /// STICKER_MODEL_DIR is the tests' model folder ($STICKER_U2NETP_DIR) when there is one, with
    /// STICKER_MODEL=u2netp: the fast model, a third of u2net's time, is what the behaviour tests
    /// need (the tests of u2net itself set their own); `extra` wins.
    static func environment(in folder: TemporaryFolder, adding extra: [String: String] = [:]) -> [String: String] {
        var env = ["HOME": folder.url.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "STICKER_MODEL": "u2netp"]
        if let model = InstalledModel.folder { env["STICKER_MODEL_DIR"] = model }
        env.merge(extra) { _, new in new }
        return env
    }

    /// Runs `catalog ARGUMENTS` in `folder` with a clean environment (see `environment`).
    static func run(
        _ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:],
        executable: URL = binary, stdin: Data? = nil
    ) async throws -> CLIResult {
        let process = WatchedProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.environment = Self.environment(in: folder, adding: environment)
        let outURL = folder.url.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let errURL = folder.url.appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let pipe = Pipe()
            process.standardInput = pipe
            try process.run()
            pipe.fileHandleForWriting.write(stdin)
            try pipe.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        await process.exited()
        try out.close()
        try err.close()
        let output = (try? Data(contentsOf: outURL)) ?? Data()
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: output, as: UTF8.self),
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
            stdoutData: output
        )
    }
}

/// The model folder `make test` installs (scripts/install-model.sh), when there is one.
enum InstalledModel {
    static let folder: String? = {
        guard let folder = ProcessInfo.processInfo.environment["STICKER_U2NETP_DIR"],
              FileManager.default.fileExists(atPath: folder + "/u2netp.bin") else { return nil }
        return folder
    }()
}

/// u2net, when the tests' model folder holds it too (`make test` installs both).
enum InstalledLargeModel {
    static let present: Bool = InstalledModel.folder.map { FileManager.default.fileExists(atPath: $0 + "/u2net.bin") } ?? false
}

extension Trait where Self == ConditionTrait {
    /// For tests that run u2net itself (the default model; most tests run u2netp, a third of its time).
    static var needsLargeModel: Self {
        .enabled(if: InstalledLargeModel.present, "needs u2net: set STICKER_U2NETP_DIR to a folder made by scripts/install-model.sh (make test does)")
    }

    /// For tests that import (which needs the segmentation model): `make test` always installs it.
    static var needsModel: Self {
        .enabled(if: InstalledModel.folder != nil, "needs the segmentation model: set STICKER_U2NETP_DIR to a folder made by scripts/install-model.sh (make test does)")
    }
}
