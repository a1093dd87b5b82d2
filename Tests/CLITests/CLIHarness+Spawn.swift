import Foundation
import SampleImages
import TestProcessSupport

/// A `catalog` process started in the background (for kills, signals and concurrent runs).
final class RunningCLI {
    let process: WatchedProcess
    private let outURL: URL
    private let errURL: URL

    init(process: WatchedProcess, outURL: URL, errURL: URL) {
        self.process = process
        self.outURL = outURL
        self.errURL = errURL
    }

    var pid: Int32 { process.processIdentifier }
    var stdout: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
    /// Where its stdout goes (for watchers on threads of their own).
    var outputURL: URL { outURL }

    /// Waits for the exit and returns what `CLI.run` would have; removes the output files.
    func wait() async -> CLIResult {
        await process.exited()
        let output = (try? Data(contentsOf: outURL)) ?? Data()
        let result = CLIResult(
            status: process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus,
            stdout: String(decoding: output, as: UTF8.self),
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
            stdoutData: output
        )
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
        return result
    }
}

extension CLI {
    /// Starts `catalog ARGUMENTS` in `folder` without waiting; output goes to hidden files there.
    static func start(_ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:]) throws -> RunningCLI {
        let process = WatchedProcess()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.environment = CLI.environment(in: folder, adding: environment)
        let outURL = folder.url.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let errURL = folder.url.appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningCLI(process: process, outURL: outURL, errURL: errURL)
    }
}

/// Test material and tools for the reliability tests.
enum Reliability {
    /// `count` different small JPEGs (one picture, a numbered COM segment each, so each hash differs),
    /// written as `folder/photo-N.jpg`; returns the folder's path.
    @discardableResult
    static func writeVariants(_ count: Int, in folder: TemporaryFolder, to subfolder: String = "many", first: Int = 0) throws -> String {
        let photo = try variantBase()
        for index in first..<(first + count) {
            try folder.write(variant(photo, index), to: "\(subfolder)/photo-\(index).jpg")
        }
        return folder.path(subfolder)
    }

    static func variantBase() throws -> [UInt8] {
        guard let photo = try SamplePhotos.demoStills(width: 320, height: 240).first(where: { $0.name.hasSuffix(".jpg") }) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return photo.bytes
    }

    static func variant(_ photo: [UInt8], _ index: Int) -> [UInt8] {
        let comment = Array("variant \(index)".utf8)
        let length = comment.count + 2
        return Array(photo[0..<2]) + [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + comment + Array(photo[2...])
    }

    /// Runs SQL on a catalog with Python's sqlite3 module (the tests do not link SQLite); true on success.
    @discardableResult
    static func sql(_ catalog: String, _ script: String) async throws -> Bool {
        let process = WatchedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.executescript(sys.argv[2]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()",
            catalog, script,
        ]
        process.standardOutput = FileHandle.nullDevice
        try await process.runToExit()
        return process.terminationStatus == 0
    }

    /// `catalog verify --json` on `catalog`: the exit status and the report.
    static func verify(_ catalog: String, in folder: TemporaryFolder) async throws -> (status: Int32, report: [String: Any], stderr: String) {
        let run = try await CLI.run(["--catalog", catalog, "verify", "--json"], in: folder)
        return (run.status, (run.json as? [String: Any]) ?? [:], run.stderr)
    }

    /// Files in `folder` (not recursive), hidden ones included, but not the harness's own output files.
    static func files(in folder: TemporaryFolder) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []
        return Set(names.filter { !$0.hasPrefix(".stdout-") && !$0.hasPrefix(".stderr-") && $0 != ".out" })
    }
}
