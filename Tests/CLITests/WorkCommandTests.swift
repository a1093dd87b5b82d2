import Foundation
import TestProcessSupport
import Testing

/// `catalog import --enqueue` and `catalog work` on the real binary, on one SQLite catalog.
@Suite(.timeLimit(.minutes(15))) struct EnqueueCommandTests {
    @Test func enqueueCountsFilesOnceAndReadsNothing() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(5, in: folder)
        try folder.write(Array("x".utf8), to: "many/.hidden.jpg")
        let first = try await CLI.run(["--catalog", "c.sqlite", "import", "--enqueue", photos, "--json"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try #require(first.jsonLines.last)
        #expect(summary["enqueued"] as? Int == 5 && summary["skipped"] as? Int == 1)
        let again = try await CLI.run(["--catalog", "c.sqlite", "import", "--enqueue", photos, "--json"], in: folder)
        #expect(again.jsonLines.last?["enqueued"] as? Int == 0 && again.jsonLines.last?["unchanged"] as? Int == 5)
        let status = try await CLI.run(["--catalog", "c.sqlite", "work", "--status", "--json"], in: folder)
        let queue = try #require(status.json as? [String: Any])
        #expect(queue["pending"] as? Int == 5 && queue["claimed"] as? Int == 0)
        let stats = try #require(try await CLI.run(["--catalog", "c.sqlite", "stats", "--json"], in: folder).json as? [String: Any])
        #expect((stats["work"] as? [String: Any])?["pending"] as? Int == 5)
        #expect(stats["total"] as? Int == 0)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", "--enqueue", "--dry-run", photos], in: folder).status == 64)
    }
}

@Suite(.needsModel, .timeLimit(.minutes(15))) struct WorkCommandTests {
    /// Starts `catalog work` with its stdout in `name`.
    private func startWorker(_ arguments: [String], in folder: TemporaryFolder, output name: String) throws -> WatchedProcess {
        let process = WatchedProcess()
        process.executableURL = CLI.binary
        process.arguments = ["--catalog", "c.sqlite", "work", "--json"] + arguments
        process.currentDirectoryURL = folder.url
        process.environment = CLI.environment(in: folder)
        let url = folder.url.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: url)
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func lines(_ name: String, in folder: TemporaryFolder) -> [[String: Any]] {
        let text = (try? String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Sends `signal` to `process` the moment its first import is reported (or it has ended).
    private func signalAfterFirstImport(_ process: WatchedProcess, _ signal: Int32, _ name: String, in folder: TemporaryFolder) async {
        let output = folder.url.appendingPathComponent(name)
        await act(when: { !process.isRunning || ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("\"imported\"") }) {
            kill(process.processIdentifier, signal)
        }
    }

    private func queue(in folder: TemporaryFolder) async throws -> [String: Any] {
        try #require(try await CLI.run(["--catalog", "c.sqlite", "work", "--status", "--json"], in: folder).json as? [String: Any])
    }

    @Test func twoWorkersProcessEveryPhotoExactlyOnce() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(8, in: folder)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", "--enqueue", photos], in: folder).status == 0)
        // A lease shorter than a photo's processing: only its renewal keeps the claims.
        let workers = try ["a", "b"].map { try startWorker(["--jobs", "1", "--lease", "1s"], in: folder, output: ".\($0)") }
        for process in workers { await process.exited() }
        #expect(workers.map(\.terminationStatus) == [0, 0])
        let events = ["a", "b"].flatMap { lines(".\($0)", in: folder) }
        #expect(!events.contains { $0["event"] as? String == "lost" }, "\(events)")
        let imported = events.filter { $0["event"] as? String == "imported" }
        let paths = imported.compactMap { $0["path"] as? String }
        #expect(paths.count == 8 && Set(paths).count == 8, "\(paths)")
        let list = try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder)
        #expect((list.json as? [Any])?.count == 8)
        let status = try await queue(in: folder)
        #expect(status["done"] as? Int == 8 && status["pending"] as? Int == 0 && status["claimed"] as? Int == 0)
        #expect(try await Reliability.verify("c.sqlite", in: folder).status == 0)
    }

    @Test func aKilledWorkersFilesAreTakenOverWhenItsLeaseExpires() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(6, in: folder)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", "--enqueue", photos], in: folder).status == 0)
        let doomed = try startWorker(["--jobs", "1", "--lease", "3s"], in: folder, output: ".doomed")
        await signalAfterFirstImport(doomed, SIGKILL, ".doomed", in: folder)
        await doomed.exited()
        let held = try await queue(in: folder)
        #expect((held["claimed"] as? Int ?? 0) <= 1)

        let rescue = try await CLI.run(["--catalog", "c.sqlite", "work", "--jobs", "2", "--json"], in: folder)
        #expect(rescue.status == 0, "\(rescue.stderr)")
        let status = try await queue(in: folder)
        #expect(status["done"] as? Int == 6 && status["claimed"] as? Int == 0 && status["pending"] as? Int == 0)
        let list = try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder)
        #expect((list.json as? [Any])?.count == 6)
        #expect(try await Reliability.verify("c.sqlite", in: folder).status == 0)
    }

    @Test func sigtermReleasesEveryClaim() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(8, in: folder)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", "--enqueue", photos], in: folder).status == 0)
        let worker = try startWorker(["--jobs", "2"], in: folder, output: ".w")
        await signalAfterFirstImport(worker, SIGTERM, ".w", in: folder)
        await worker.exited()
        #expect(worker.terminationStatus == 143)
        let summary = try #require(lines(".w", in: folder).last)
        #expect(summary["interrupted"] as? Bool == true)
        let status = try await queue(in: folder)
        #expect(status["claimed"] as? Int == 0)
        #expect((status["pending"] as? Int ?? 0) + (status["done"] as? Int ?? 0) == 8)
    }

    @Test func aFileTheWorkerCannotReadFailsWithTheHostName() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(2, in: folder)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", "--enqueue", photos], in: folder).status == 0)
        try FileManager.default.removeItem(atPath: folder.path("many/photo-1.jpg"))
        let run = try await CLI.run(["--catalog", "c.sqlite", "work", "--json"], in: folder)
        #expect(run.status == 1)
        let status = try await queue(in: folder)
        #expect(status["done"] as? Int == 1 && status["failed"] as? Int == 1)
        let failure = try #require((status["failures"] as? [[String: Any]])?.first)
        #expect((failure["message"] as? String)?.contains("on host ") == true, "\(failure)")
        #expect((failure["path"] as? String)?.hasSuffix("photo-1.jpg") == true)
    }

    /// A file edited in place after its import updates its entry, as `import` does: no second entry for one path.
    @Test func anEnqueuedFileEditedInPlaceUpdatesItsEntry() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(2, in: folder)
        try #require(try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder).status == 0)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: photos).sorted().first)
        let path = photos + "/" + file
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.append(contentsOf: [0, 0, 0, 0])  // trailing bytes after the image: the same photo, other bytes
        try bytes.write(to: URL(fileURLWithPath: path))
        try #require(try await CLI.run(["--catalog", "c.sqlite", "import", "--enqueue", photos], in: folder).status == 0)
        let work = try await CLI.run(["--catalog", "c.sqlite", "work", "--json"], in: folder)
        #expect(work.status == 0, "\(work.stderr)")
        #expect(work.jsonLines.contains { $0["event"] as? String == "updated" && ($0["path"] as? String)?.hasSuffix(file) == true }, "\(work.stdout)")
        let list = try #require(try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder).json as? [[String: Any]])
        #expect(list.count == 2, "\(list)")
    }

    @Test func staleEntriesAreReprocessedOnceTheQueueIsDrained() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(3, in: folder)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder).status == 0)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "config", "set", "palette.colors", "3"], in: folder).status == 0)
        let stale = try await CLI.run(["--catalog", "c.sqlite", "list", "--stale", "--json"], in: folder)
        #expect((stale.json as? [Any])?.count == 3)
        // One more file enqueued: imported first, then the three stale entries.
        try Reliability.writeVariants(1, in: folder, to: "more", first: 10)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", "--enqueue", folder.path("more")], in: folder).status == 0)
        let run = try await CLI.run(["--catalog", "c.sqlite", "work", "--json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let events = run.jsonLines.compactMap { $0["event"] as? String }
        #expect(events == ["imported", "reprocessed", "reprocessed", "reprocessed", "summary"], "\(run.stdout)")
        #expect(run.jsonLines.last?["reprocessed"] as? Int == 3)
        let after = try await CLI.run(["--catalog", "c.sqlite", "list", "--stale", "--json"], in: folder)
        #expect((after.json as? [Any])?.isEmpty == true, "\(after.stdout)")
        let again = try await CLI.run(["--catalog", "c.sqlite", "work", "--json"], in: folder)
        #expect(again.jsonLines.compactMap { $0["event"] as? String } == ["summary"])
        #expect(try await Reliability.verify("c.sqlite", in: folder).status == 0)
    }
}
