import Foundation
import TestProcessSupport
import Testing

/// `catalog copy --to` between SQLite catalogs on the real binary: a whole copy, refusals, a resumed
/// copy after an interruption, and `verify` reporting the same counts and checksums on both ends.
@Suite(.needsModel, .timeLimit(.minutes(15))) struct CopyCommandTests {
    /// A catalog `c.sqlite` with `count` stickers, a failed entry, a pack and a setting.
    private func sourceCatalog(_ count: Int = 5) async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(count, in: folder)
        try folder.write(Array("not a photo".utf8), to: "many/broken.jpg")
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder)
        try #require(run.status == 1, "\(run.stderr)")  // the broken file (entry 1) failed, the rest was imported
        for arguments in [
            ["pack", "create", "beach", "--title", "Beach days", "--author", "Ana"], ["pack", "add", "beach", "4", "2", "--emoji", "🌊"],
            ["config", "set", "palette.colors", "4"],
        ] {
            let step = try await CLI.run(["--catalog", "c.sqlite"] + arguments, in: folder)
            try #require(step.status == 0, "\(arguments): \(step.stderr)")
        }
        return folder
    }

    private func checksums(_ catalog: String, in folder: TemporaryFolder) async throws -> [String: Any] {
        let (status, report, stderr) = try await Reliability.verify(catalog, in: folder)
        #expect(status == 0, "\(stderr)")
        return try #require(report["checksums"] as? [String: Any], "\(report)")
    }

    @Test func aCopyHasTheSameContentAndChecksums() async throws {
        let folder = try await sourceCatalog()
        let copy = try await CLI.run(["--catalog", "c.sqlite", "copy", "--to", "copy.sqlite", "--json", "--batch-size", "2"], in: folder)
        #expect(copy.status == 0, "\(copy.stderr)")
        let events = copy.jsonLines.compactMap { $0["event"] as? String }
        #expect(events.first == "started" && events.last == "finished" && events.filter { $0 == "batch" }.count == 3, "\(copy.stdout)")
        #expect(copy.jsonLines.last?["complete"] as? Bool == true)
        #expect(copy.stderr.contains("entries copied"))

        let original = try await checksums("c.sqlite", in: folder)
        let copied = try await checksums("copy.sqlite", in: folder)
        #expect(original["entries"] as? Int == 6 && original["stickers"] as? Int == 5 && original["packItems"] as? Int == 2)
        for key in ["entries", "stickers", "paletteColors", "packs", "packItems", "settings", "entriesSHA256", "packsSHA256"] {
            #expect("\(original[key] ?? "nil")" == "\(copied[key] ?? "nil")", "\(key)")
        }
        // Ids, packs in order with their emoji, settings and failures as in the original.
        let pack = try #require(try await CLI.run(["--catalog", "copy.sqlite", "pack", "show", "beach", "--json"], in: folder).json as? [String: Any])
        #expect((pack["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [4, 2])
        #expect(pack["author"] as? String == "Ana")
        let setting = try await CLI.run(["--catalog", "copy.sqlite", "config", "get", "palette.colors"], in: folder)
        #expect(setting.stdout.contains("4"))
        let failed = try await CLI.run(["--catalog", "copy.sqlite", "list", "--failed", "--json"], in: folder)
        #expect((failed.json as? [[String: Any]])?.count == 1)
        let human = try await CLI.run(["--catalog", "copy.sqlite", "verify"], in: folder)
        #expect(human.stdout.contains("Entries     sha256 \(original["entriesSHA256"] as? String ?? "?")"))
    }

    @Test func aNonEmptyTargetIsRefused() async throws {
        let folder = try await sourceCatalog(3)
        try Reliability.writeVariants(1, in: folder, to: "other", first: 10)
        #expect(try await CLI.run(["--catalog", "other.sqlite", "import", folder.path("other")], in: folder).status == 0)
        let refused = try await CLI.run(["--catalog", "c.sqlite", "copy", "--to", "other.sqlite"], in: folder)
        #expect(refused.status == 74)
        #expect(refused.stderr.contains("not empty"), "\(refused.stderr)")
        let list = try await CLI.run(["--catalog", "other.sqlite", "list", "--json"], in: folder)
        #expect((list.json as? [Any])?.count == 1)

        #expect(try await CLI.run(["--catalog", "c.sqlite", "copy", "--to", "copy.sqlite"], in: folder).status == 0)
        let again = try await CLI.run(["--catalog", "c.sqlite", "copy", "--to", "copy.sqlite"], in: folder)
        #expect(again.status == 74 && again.stderr.contains("already a complete copy"), "\(again.stderr)")
        let itself = try await CLI.run(["--catalog", "c.sqlite", "copy", "--to", "c.sqlite"], in: folder)
        #expect(itself.status == 74)
        let fromOther = try await CLI.run(["--catalog", "other.sqlite", "copy", "--to", "copy.sqlite"], in: folder)
        #expect(fromOther.status == 74)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func anInterruptedCopyResumes(signal: Int32, expectedStatus: Int32) async throws {
        let folder = try await sourceCatalog(5)
        let process = WatchedProcess()
        process.executableURL = CLI.binary
        process.arguments = ["--catalog", "c.sqlite", "copy", "--to", "copy.sqlite", "--batch-size", "1", "--json"]
        process.currentDirectoryURL = folder.url
        process.environment = CLI.environment(in: folder, adding: ["STICKER_TEST_COPY_BATCH_DELAY": "0.3"])
        let outURL = folder.url.appendingPathComponent(".out")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = FileHandle.nullDevice
        try process.run()
        await act(when: { !process.isRunning || (try? String(contentsOf: outURL, encoding: .utf8))?.contains("\"batch\"") == true }, within: .seconds(60)) {
            kill(process.processIdentifier, signal)
        }
        await process.exited()
        #expect(process.terminationStatus == expectedStatus)
        let output = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let summary = try #require(output.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(summary["interrupted"] as? Bool == true && summary["complete"] as? Bool == false)
        let done = summary["copied"] as? Int ?? 0
        #expect(done >= 1 && done < 6)

        // Incomplete: another source is refused, the same one continues where it stopped.
        let resumed = try await CLI.run(["--catalog", "c.sqlite", "copy", "--to", "copy.sqlite", "--json"], in: folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.jsonLines.first?["resumedAfter"] as? Int == done)
        #expect(resumed.jsonLines.last?["copied"] as? Int == 6 - done)
        let original = try await checksums("c.sqlite", in: folder)
        let copied = try await checksums("copy.sqlite", in: folder)
        #expect(original["entriesSHA256"] as? String == copied["entriesSHA256"] as? String)
        #expect(original["packsSHA256"] as? String == copied["packsSHA256"] as? String)
    }
}
