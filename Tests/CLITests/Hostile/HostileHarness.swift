import Foundation
import SampleImages
import TestProcessSupport
import Testing

/// Tools of the hostile-environment suite: special files made by the test, runs with stdout on
/// /dev/full or a closed pipe, and a record of a folder tree to prove nothing outside the catalog changed.
enum Hostile {
    /// Imports use the centred-ellipse predictor: these tests are about files, not cut-outs.
    static let fastImport = ["STICKER_TEST_PREDICTOR": "centre"]

    static var isRoot: Bool { getuid() == 0 }

    /// A small JPEG (number `index` makes distinct bytes).
    static func photo(_ index: Int = 0) throws -> [UInt8] {
        Reliability.variant(try Reliability.variantBase(), index)
    }

    static func makeFIFO(_ path: String) throws {
        guard mkfifo(path, 0o644) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// A listening UNIX socket at `path`; returns its descriptor (close it when done).
    static func makeSocket(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return descriptor
    }

    /// A character device like /dev/null (1, 3) at `path`; only root may make one.
    static func makeDevice(_ path: String) -> Bool {
        mknod(path, S_IFCHR | 0o666, makedev(1, 3)) == 0
    }

    private static func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
        dev_t((major & 0xfff) << 8 | (minor & 0xff))
    }

    /// Runs `catalog ARGUMENTS` with stdout on `stdout` (a descriptor the caller owns); returns the
    /// exit status, stderr and how long it took.
    static func run(
        _ arguments: [String], in folder: TemporaryFolder, stdout: FileHandle, environment: [String: String] = [:]
    ) async throws -> (status: Int32, stderr: String, seconds: Double) {
        let process = WatchedProcess()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.environment = CLI.environment(in: folder, adding: environment)
        let errURL = folder.url.appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        try await process.runToExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, (try? String(contentsOf: errURL, encoding: .utf8)) ?? "", Date().timeIntervalSince(started))
    }

    /// A run whose stdout is a pipe nobody reads (its read end closed before the start): every write fails with EPIPE.
    static func runWithClosedPipe(
        _ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:]
    ) async throws -> (status: Int32, stderr: String, seconds: Double) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EIO) }
        close(ends[0])
        let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        return try await run(arguments, in: folder, stdout: writer, environment: environment)
    }

    /// A run whose stdout is /dev/full: every write fails with ENOSPC.
    static func runOnFullDisk(_ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:]) async throws -> (status: Int32, stderr: String, seconds: Double) {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        return try await run(arguments, in: folder, stdout: full, environment: environment)
    }
}

/// What a folder tree holds (kind, size, modification time of everything, links not followed), so a
/// test can show that nothing but the catalog changed.
struct TreeRecord: Equatable, CustomStringConvertible {
    var entries: [String: String] = [:]

    /// The tree under `folder`, leaving out the catalog's files (`catalog*`) and the harness's output files.
    init(_ folder: TemporaryFolder, catalog: String = "c.sqlite") {
        let root = folder.url.path
        var pending = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? root : root + "/" + relative
            guard let directory = opendir(path) else { continue }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." || name.hasPrefix(".stdout-") || name.hasPrefix(".stderr-") || name == ".out" { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                if child == catalog || child.hasPrefix(catalog + "-") || child.hasPrefix(catalog + ".pre-") { continue }
                var info = stat()
                guard lstat(root + "/" + child, &info) == 0 else { continue }
                entries[child] = "\(info.st_mode & S_IFMT) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
                if (info.st_mode & S_IFMT) == S_IFDIR { pending.append(child) }
            }
            closedir(directory)
        }
    }

    var description: String { entries.keys.sorted().map { "\($0): \(entries[$0]!)" }.joined(separator: "\n") }
}

extension Hostile {
    /// `catalog verify` finds the catalog sound (or there is no catalog at all).
    static func expectSound(_ catalog: String, in folder: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard FileManager.default.fileExists(atPath: folder.path(catalog)) else { return }
        let verify = try await Reliability.verify(catalog, in: folder)
        #expect(verify.status == 0, "verify: \(verify.report) \(verify.stderr)", sourceLocation: sourceLocation)
    }
}
