import Foundation
import TestProcessSupport
import PostgresTestSupport
import Testing

/// `catalog copy --to` through a PostgreSQL catalog and `catalog work` on one, on the real binary with a
/// server of the tests' own: a SQLite → PostgreSQL → SQLite copy keeps every checksum; two workers
/// process every photo once; a killed worker's files are taken over when its lease expires.
@Suite(.needsModel, .enabled(if: TestPostgresServer.isAvailable, "PostgreSQL is not installed (make test installs it)"), .timeLimit(.minutes(15)))
struct PostgresCopyAndWorkTests {
    let server: TestPostgresServer

    init() throws {
        server = try TestPostgresServer.server
    }

    private func checksums(_ catalog: String, in folder: TemporaryFolder) async throws -> [String: Any] {
        let (status, report, stderr) = try await Reliability.verify(catalog, in: folder)
        #expect(status == 0, "\(catalog): \(stderr)")
        return try #require(report["checksums"] as? [String: Any], "\(report)")
    }

    @Test func aCopyThroughPostgreSQLAndBackKeepsEveryChecksum() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(4, in: folder)
        try folder.write(Array("not a photo".utf8), to: "many/broken.jpg")
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder).status == 1)
        for arguments in [
            ["pack", "create", "beach", "--title", "Beach days", "--author", "Ana"], ["pack", "add", "beach", "4", "2", "--emoji", "🌊"],
            ["config", "set", "palette.colors", "4"],
        ] {
            let step = try await CLI.run(["--catalog", "c.sqlite"] + arguments, in: folder)
            try #require(step.status == 0, "\(arguments): \(step.stderr)")
        }
        let postgres = server.address(database: try await server.makeDatabase())
        let there = try await CLI.run(["--catalog", "c.sqlite", "copy", "--to", postgres, "--batch-size", "2"], in: folder)
        #expect(there.status == 0, "\(there.stderr)")
        let back = try await CLI.run(["--catalog", postgres, "copy", "--to", "back.sqlite"], in: folder)
        #expect(back.status == 0, "\(back.stderr)")
        let again = try await CLI.run(["--catalog", "c.sqlite", "copy", "--to", postgres], in: folder)
        #expect(again.status == 74 && again.stderr.contains("already a complete copy"), "\(again.stderr)")

        let original = try await checksums("c.sqlite", in: folder)
        #expect(original["entries"] as? Int == 5 && original["packItems"] as? Int == 2)
        for catalog in [postgres, "back.sqlite"] {
            let copied = try await checksums(catalog, in: folder)
            for key in ["entries", "stickers", "paletteColors", "packs", "packItems", "settings", "entriesSHA256", "packsSHA256"] {
                #expect("\(original[key] ?? "nil")" == "\(copied[key] ?? "nil")", "\(catalog): \(key)")
            }
        }
        // New entries on the PostgreSQL copy continue after the copied ids.
        try Reliability.writeVariants(1, in: folder, to: "more", first: 10)
        let more = try await CLI.run(["--catalog", postgres, "import", folder.path("more"), "--json"], in: folder)
        #expect(more.status == 0, "\(more.stderr)")
        #expect(more.jsonLines.first { $0["event"] as? String == "imported" }?["id"] as? Int == 6, "\(more.stdout)")
    }

    /// Starts `catalog work` on `catalog` with its JSON lines in `name`.
    private func startWorker(_ catalog: String, _ arguments: [String], in folder: TemporaryFolder, output name: String) throws -> WatchedProcess {
        let process = WatchedProcess()
        process.executableURL = CLI.binary
        process.arguments = ["--catalog", catalog, "work", "--json"] + arguments
        process.currentDirectoryURL = folder.url
        process.environment = CLI.environment(in: folder)
        let url = folder.url.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: url)
        let errors = folder.url.appendingPathComponent(name + ".err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        return process
    }

    private func lines(_ name: String, in folder: TemporaryFolder) -> [[String: Any]] {
        let text = (try? String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private func queue(_ catalog: String, in folder: TemporaryFolder) async throws -> [String: Any] {
        try #require(try await CLI.run(["--catalog", catalog, "work", "--status", "--json"], in: folder).json as? [String: Any])
    }

    @Test func twoWorkersProcessEveryPhotoExactlyOnce() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(8, in: folder)
        let postgres = server.address(database: try await server.makeDatabase())
        let enqueued = try await CLI.run(["--catalog", postgres, "import", "--enqueue", photos, "--json"], in: folder)
        #expect(enqueued.status == 0 && enqueued.jsonLines.last?["enqueued"] as? Int == 8, "\(enqueued.stderr)")
        // A lease shorter than a photo's processing: only its renewal keeps the claims.
        let workers = try ["a", "b"].map { try startWorker(postgres, ["--jobs", "1", "--lease", "1s"], in: folder, output: ".\($0)") }
        for process in workers { await process.exited() }
        #expect(workers.map(\.terminationStatus) == [0, 0])
        let events = ["a", "b"].flatMap { lines(".\($0)", in: folder) }
        #expect(!events.contains { $0["event"] as? String == "lost" }, "\(events)")
        let paths = events.filter { $0["event"] as? String == "imported" }.compactMap { $0["path"] as? String }
        #expect(paths.count == 8 && Set(paths).count == 8, "\(paths)")
        let list = try await CLI.run(["--catalog", postgres, "list", "--json"], in: folder)
        #expect((list.json as? [Any])?.count == 8)
        let status = try await queue(postgres, in: folder)
        #expect(status["done"] as? Int == 8 && status["pending"] as? Int == 0 && status["claimed"] as? Int == 0)
        #expect(try await Reliability.verify(postgres, in: folder).status == 0)
    }

    @Test func aKilledWorkersFilesAreTakenOverWhenItsLeaseExpires() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(6, in: folder)
        let postgres = server.address(database: try await server.makeDatabase())
        #expect(try await CLI.run(["--catalog", postgres, "import", "--enqueue", photos], in: folder).status == 0)
        let doomed = try startWorker(postgres, ["--jobs", "1", "--lease", "3s"], in: folder, output: ".doomed")
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, doomed.isRunning,
              !lines(".doomed", in: folder).contains(where: { $0["event"] as? String == "imported" }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        kill(doomed.processIdentifier, SIGKILL)
        await doomed.exited()
        let done = lines(".doomed", in: folder).filter { $0["event"] as? String == "imported" }.count
        let held = try await queue(postgres, in: folder)
        #expect((held["claimed"] as? Int ?? 0) <= 1)

        // The other worker waits for the dead one's lease, then takes its file.
        let rescue = try await CLI.run(["--catalog", postgres, "work", "--jobs", "2", "--json"], in: folder)
        #expect(rescue.status == 0, "\(rescue.stderr)")
        let rescued = rescue.jsonLines.filter { $0["event"] as? String == "imported" }.count
        #expect(done + rescued == 6, "\(rescue.stdout)")
        let status = try await queue(postgres, in: folder)
        #expect(status["done"] as? Int == 6 && status["claimed"] as? Int == 0 && status["pending"] as? Int == 0)
        let list = try await CLI.run(["--catalog", postgres, "list", "--json"], in: folder)
        #expect((list.json as? [Any])?.count == 6)
        #expect(try await Reliability.verify(postgres, in: folder).status == 0)
    }

    /// Sends `signal` to `worker` the moment its first import is reported (or it has ended).
    private func signalAfterFirstImport(_ worker: WatchedProcess, _ signal: Int32, _ name: String, in folder: TemporaryFolder) async {
        let output = folder.url.appendingPathComponent(name)
        await act(when: { !worker.isRunning || ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("\"imported\"") }) {
            kill(worker.processIdentifier, signal)
        }
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aSignalledWorkerGivesBackWhatItHolds(signal: Int32, status: Int32) async throws {
        let folder = try TemporaryFolder()
        // 640 × 480: about a second each, so the signal lands while the worker works.
        let photos = try folder.writeNumberedCopies(8, width: 640, height: 480)
        let postgres = server.address(database: try await server.makeDatabase())
        #expect(try await CLI.run(["--catalog", postgres, "import", "--enqueue", photos], in: folder).status == 0)
        let worker = try startWorker(postgres, ["--jobs", "2"], in: folder, output: ".w")
        await signalAfterFirstImport(worker, signal, ".w", in: folder)
        await worker.exited()
        let errors = (try? String(contentsOf: folder.url.appendingPathComponent(".w.err"), encoding: .utf8)) ?? ""
        #expect(worker.terminationStatus == status, "\(errors)")
        let summary = try #require(lines(".w", in: folder).last)
        #expect(summary["event"] as? String == "summary" && summary["interrupted"] as? Bool == true, "\(summary)")
        // Nothing is left claimed until a lease runs out: what it held is pending again, at once.
        let left = try await queue(postgres, in: folder)
        #expect(left["claimed"] as? Int == 0, "\(left)")
        #expect((left["pending"] as? Int ?? 0) + (left["done"] as? Int ?? 0) == 8, "\(left)")
        #expect(try await Reliability.verify(postgres, in: folder).status == 0)
    }

    @Test func staleEntriesAreReprocessedOnceTheQueueIsDrained() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(3, in: folder)
        let postgres = server.address(database: try await server.makeDatabase())
        #expect(try await CLI.run(["--catalog", postgres, "import", photos], in: folder).status == 0)
        #expect(try await CLI.run(["--catalog", postgres, "config", "set", "palette.colors", "3"], in: folder).status == 0)
        try Reliability.writeVariants(1, in: folder, to: "more", first: 10)
        #expect(try await CLI.run(["--catalog", postgres, "import", "--enqueue", folder.path("more")], in: folder).status == 0)
        let run = try await CLI.run(["--catalog", postgres, "work", "--json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let events = run.jsonLines.compactMap { $0["event"] as? String }
        #expect(events == ["imported", "reprocessed", "reprocessed", "reprocessed", "summary"], "\(run.stdout)")
        let after = try await CLI.run(["--catalog", postgres, "list", "--stale", "--json"], in: folder)
        #expect((after.json as? [Any])?.isEmpty == true, "\(after.stdout)")
        #expect(try await Reliability.verify(postgres, in: folder).status == 0)
    }
}
