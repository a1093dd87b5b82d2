import Foundation
import TestProcessSupport
import SampleImages
import Testing

/// SIGINT / SIGTERM during an import: finished entries are kept, the exit code says which signal,
/// and a re-run finishes the work.
@Suite(.needsModel, .timeLimit(.minutes(15))) struct InterruptTests {
    /// Photos in the folder: each takes about a second (the network), so a signal lands mid-import.
    static let count = 12

    /// `count` different JPEGs (same picture, a numbered COM segment each, so each hash differs).
    private func writeVariants(_ count: Int, in folder: TemporaryFolder) throws -> String {
        let photo = try #require(SamplePhotos.demoStills(width: 640, height: 480).first { $0.name.hasSuffix(".jpg") })
        for index in 0..<count {
            let comment = Array("variant \(index)".utf8)
            let length = comment.count + 2
            let variant = Array(photo.bytes[0..<2]) + [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + comment + Array(photo.bytes[2...])
            try folder.write(variant, to: "many/photo-\(index).jpg")
        }
        return folder.path("many")
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalStopsCleanlyAndARerunContinues(signal: Int32, expectedStatus: Int32) async throws {
        let folder = try TemporaryFolder()
        let photos = try writeVariants(Self.count, in: folder)

        let process = WatchedProcess()
        process.executableURL = CLI.binary
        process.arguments = ["--catalog", "c.sqlite", "import", photos, "--jobs", "1", "--json"]
        process.currentDirectoryURL = folder.url
        process.environment = CLI.environment(in: folder)
        let outURL = folder.url.appendingPathComponent(".out")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = FileHandle.nullDevice
        try process.run()

        // Wait for the first committed entry, then signal.
        await act(when: { !process.isRunning || (try? String(contentsOf: outURL, encoding: .utf8))?.contains("\"imported\"") == true }, within: .seconds(60)) {
            kill(process.processIdentifier, signal)
        }
        await process.exited()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == expectedStatus)

        let output = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let summary = try #require(output.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(summary["interrupted"] as? Bool == true)
        let done = summary["imported"] as? Int ?? 0
        #expect(done >= 1 && done < Self.count)
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite-journal")))
        // No temporary file is left: only the catalog (and SQLite's own WAL files, if any) beside the photos.
        let leftovers = Reliability.files(in: folder).subtracting(["c.sqlite", "c.sqlite-wal", "c.sqlite-shm", "many"])
        #expect(leftovers.isEmpty, "left behind: \(leftovers)")

        let rerun = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--json"], in: folder)
        #expect(rerun.status == 0)
        let after = try #require(rerun.jsonLines.last)
        #expect(after["imported"] as? Int == Self.count - done)
        #expect(after["duplicates"] as? Int == done)
        let list = try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder)
        #expect((list.json as? [Any])?.count == Self.count)
    }
}
