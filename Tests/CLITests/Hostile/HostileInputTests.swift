import Foundation
import TestProcessSupport
import Testing

/// Inputs in hostile places: FIFOs, sockets, devices, empty files, a catalog inside the imported
/// folder, files edited in place, files that failed before. No command blocks, every file a walk
/// meets is accounted for, and nothing outside the catalog changes.
@Suite(.timeLimit(.minutes(15))) struct HostileInputTests {
    private func importJSON(_ arguments: [String], in folder: TemporaryFolder) async throws -> CLIResult {
        try await CLI.run(["--catalog", "c.sqlite", "import", "--json"] + arguments, in: folder, environment: Hostile.fastImport)
    }

    /// The summary adds up: one event per file met, counted in its class.
    private func expectAccounted(_ run: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) {
        let events = run.jsonLines.dropLast()
        guard let summary = run.jsonLines.last else {
            Issue.record("no summary: \(run.stdout) \(run.stderr)", sourceLocation: sourceLocation)
            return
        }
        for (key, event) in [("imported", "imported"), ("duplicates", "duplicate"), ("failed", "failed"), ("updated", "updated"), ("skipped", "skipped")] {
            #expect(summary[key] as? Int == events.filter { $0["event"] as? String == event }.count, "\(key)", sourceLocation: sourceLocation)
        }
    }

    @Test func aFIFOGivenToImportIsRefusedWithoutBlocking() async throws {
        let folder = try TemporaryFolder()
        try Hostile.makeFIFO(folder.path("f.jpg"))
        let before = TreeRecord(folder)
        let started = Date()
        let run = try await importJSON([folder.path("f.jpg")], in: folder)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(run.status == 65)
        let event = try #require(run.jsonLines.first)
        #expect((event["error"] as? [String: Any])?["code"] as? String == "not-a-file")
        #expect(TreeRecord(folder) == before)
        try await Hostile.expectSound("c.sqlite", in: folder)
    }

    @Test func specialFilesInAFolderAreSkippedWithAReason() async throws {
        let folder = try TemporaryFolder()
        try folder.write(Hostile.photo(1), to: "photos/a.jpg")
        try Hostile.makeFIFO(folder.path("photos/fifo.jpg"))
        let socketDescriptor = try Hostile.makeSocket(folder.path("photos/s.sock"))
        defer { close(socketDescriptor) }
        let device = Hostile.isRoot && Hostile.makeDevice(folder.path("photos/null.jpg"))
        if !Hostile.isRoot { print("note: not root: the device node of specialFilesInAFolderAreSkippedWithAReason is skipped") }
        try folder.write(Hostile.photo(2), to: "photos/.hidden.jpg")
        let before = TreeRecord(folder)

        let run = try await importJSON([folder.path("photos")], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        expectAccounted(run)
        let skipped = run.jsonLines.filter { $0["event"] as? String == "skipped" }
        var reasons: [String: String] = [:]
        for event in skipped {
            let name = ((event["path"] as? String ?? "") as NSString).lastPathComponent
            reasons[name] = (event["reason"] as? [String: Any])?["code"] as? String
        }
        #expect(reasons["fifo.jpg"] == "not-a-file")
        #expect(reasons["s.sock"] == "not-a-file")
        #expect(reasons[".hidden.jpg"] == "hidden")
        if device { #expect(reasons["null.jpg"] == "not-a-file") }
        #expect(run.jsonLines.last?["imported"] as? Int == 1)
        #expect(TreeRecord(folder) == before)
        try await Hostile.expectSound("c.sqlite", in: folder)
    }

    @Test func aCatalogInsideTheImportedFolderIsNeverImported() async throws {
        let folder = try TemporaryFolder()
        try folder.write(Hostile.photo(1), to: "a.jpg")
        try folder.write(Hostile.photo(2), to: "b.jpg")
        let first = try await importJSON([folder.url.path], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.jsonLines.last?["imported"] as? Int == 2)
        // A backup and a copy kept before a migration, beside the catalog.
        #expect(try await CLI.run(["--catalog", "c.sqlite", "backup", "nightly.sqlite"], in: folder).status == 0)
        let second = try await importJSON([folder.url.path], in: folder)
        #expect(second.status == 0, "\(second.stderr)")
        expectAccounted(second)
        #expect(second.jsonLines.last?["failed"] as? Int == 0)
        #expect(second.jsonLines.last?["duplicates"] as? Int == 2)
        let codes = second.jsonLines.filter { $0["event"] as? String == "skipped" }.compactMap { ($0["reason"] as? [String: Any])?["code"] as? String }
        #expect(codes.contains("catalog-file"))
        let list = try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder)
        #expect((list.json as? [Any])?.count == 2)
        try await Hostile.expectSound("c.sqlite", in: folder)
    }

    @Test func emptyFilesFailEachOnItsOwn() async throws {
        let folder = try TemporaryFolder()
        try folder.write([], to: "photos/one.jpg")
        try folder.write([], to: "photos/two.jpg")
        let run = try await importJSON([folder.path("photos")], in: folder)
        #expect(run.status == 65)
        expectAccounted(run)
        let codes = run.jsonLines.filter { $0["event"] as? String == "failed" }.compactMap { ($0["error"] as? [String: Any])?["code"] as? String }
        #expect(codes == ["empty", "empty"])
        #expect(run.jsonLines.last?["duplicates"] as? Int == 0)
    }

    @Test func reimportingAFailedFileReportsItFailed() async throws {
        let folder = try TemporaryFolder()
        let broken = try folder.write(Array(Hostile.photo().prefix(300)), to: "broken.jpg")
        let first = try await importJSON([broken], in: folder)
        #expect(first.status == 65)
        let second = try await importJSON([broken], in: folder)
        #expect(second.status == 65, "\(second.stdout)")
        let event = try #require(second.jsonLines.first)
        #expect(event["event"] as? String == "failed")
        #expect(((event["error"] as? [String: Any])?["code"] as? String)?.isEmpty == false)
        let text = try await CLI.run(["--catalog", "c.sqlite", "import", broken], in: folder, environment: Hostile.fastImport)
        #expect(text.stdout.contains("1 failed"), "\(text.stdout)")
        #expect(text.stderr.contains("broken.jpg"))
    }

    @Test func aFileEditedInPlaceUpdatesItsEntry() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(Hostile.photo(1), to: "photos/a.jpg")
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", path, "--pack", "p"], in: folder, environment: Hostile.fastImport).status == 0)
        let before = try #require(try await CLI.run(["--catalog", "c.sqlite", "show", "1", "--json"], in: folder).json as? [String: Any])

        try folder.write(Hostile.photo(7), to: "photos/a.jpg")
        let run = try await importJSON([path], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let event = try #require(run.jsonLines.first)
        #expect(event["event"] as? String == "updated")
        #expect(event["id"] as? Int == 1)
        expectAccounted(run)

        let list = try #require(try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder).json as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["sha256"] as? String != before["sha256"] as? String)
        let pack = try #require(try await CLI.run(["--catalog", "c.sqlite", "pack", "show", "p", "--json"], in: folder).json as? [String: Any])
        #expect((pack["items"] as? [[String: Any]])?.first?["id"] as? Int == 1)
        // Nothing is left for reprocess to complain about.
        let stale = try await CLI.run(["--catalog", "c.sqlite", "reprocess", "--dry-run"], in: folder)
        #expect(stale.status == 0)
        #expect(!stale.stderr.contains("left as it is"), "\(stale.stderr)")
        try await Hostile.expectSound("c.sqlite", in: folder)
    }

    @Test func aSourceReplacedByAFIFODoesNotBlockReprocessOrList() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(Hostile.photo(1), to: "a.jpg")
        #expect(try await importJSON([path], in: folder).status == 0)
        try FileManager.default.removeItem(atPath: path)
        try Hostile.makeFIFO(path)
        let started = Date()
        let stale = try await CLI.run(["--catalog", "c.sqlite", "list", "--stale"], in: folder)
        let reprocess = try await CLI.run(["--catalog", "c.sqlite", "reprocess"], in: folder, environment: Hostile.fastImport)
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(stale.status == 0)
        #expect(reprocess.status == 1)
        #expect(reprocess.stderr.contains("not-a-file"), "\(reprocess.stderr)")
        try await Hostile.expectSound("c.sqlite", in: folder)
    }

    @Test func aNameThatIsNotUTF8IsAccountedFor() async throws {
        let folder = try TemporaryFolder()
        try folder.write(Hostile.photo(1), to: "photos/ok.jpg")
        // "caf\xE9.jpg": Latin-1, not UTF-8.
        let name: [UInt8] = Array(folder.path("photos/caf").utf8) + [0xE9] + Array(".jpg".utf8)
        let descriptor = name.withUnsafeBufferPointer { buffer in
            (buffer.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(descriptor >= 0)
        let photo = try Hostile.photo(2)
        _ = photo.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
        close(descriptor)

        let run = try await importJSON([folder.path("photos")], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        expectAccounted(run)
        #expect(run.jsonLines.last?["imported"] as? Int == 2)
        let event = try #require(run.jsonLines.first { ($0["path"] as? String)?.hasSuffix("caf\\xE9.jpg") == true }, "\(run.stdout)")
        #expect(event["event"] as? String == "imported")
        #expect(event["pathEscaped"] as? Bool == true)
        // The entry's file is found again by the commands that stat it: not missing, not stale.
        let verify = try await Reliability.verify("c.sqlite", in: folder)
        #expect(verify.status == 0)
        #expect((verify.report["missingSources"] as? [Any])?.isEmpty ?? true, "\(verify.report)")
        let list = try #require(try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder).json as? [[String: Any]])
        let listed = try #require(list.first { ($0["path"] as? String)?.hasSuffix("caf\\xE9.jpg") == true })
        #expect(listed["pathEscaped"] as? Bool == true)
        let show = try #require(try await CLI.run(["--catalog", "c.sqlite", "show", "\(listed["id"] as? Int ?? 0)", "--json"], in: folder).json as? [String: Any])
        #expect(show["pathEscaped"] as? Bool == true)
        #expect(show["sticker"] is [String: Any])
        let stale = try await CLI.run(["--catalog", "c.sqlite", "list", "--stale", "--json"], in: folder)
        #expect((stale.json as? [Any])?.isEmpty == true, "\(stale.stdout)")
        let again = try await importJSON([folder.path("photos")], in: folder)
        #expect(again.jsonLines.last?["duplicates"] as? Int == 2)

        // Named on the command line (raw bytes through a shell): the same file, found by its bytes.
        let process = WatchedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" --catalog c.sqlite import --json \"$(printf 'photos/caf\\351.jpg')\"", CLI.binary.path]
        process.currentDirectoryURL = folder.url
        process.environment = CLI.environment(in: folder, adding: Hostile.fastImport)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = String(decoding: await out.fileHandleForReading.readUntilClosed(), as: UTF8.self)
        await process.exited()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("\"duplicate\""), "\(output)")
    }
}
