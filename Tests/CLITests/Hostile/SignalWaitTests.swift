import Foundation
import TestProcessSupport
import Testing

/// The first SIGINT or SIGTERM ends whatever a command waits on within 2 seconds, finished work kept.
/// Here: a busy catalog whose write lock another process holds (long imports and reprocesses are
/// covered by InterruptTests and ReprocessInterruptTests).
@Suite(.timeLimit(.minutes(15))) struct SignalWaitTests {
    /// Another process holding the catalog's write lock until it is terminated.
    private func holdLock(on catalog: String) throws -> WatchedProcess {
        let process = WatchedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); time.sleep(120)",
            catalog,
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // Wait for the lock to be taken.
        _ = out.fileHandleForReading.availableData
        return process
    }

    @Test(arguments: [
        (["pack", "create", "q"], SIGINT),
        (["import", "photos"], SIGINT),
        (["import", "photos"], SIGTERM),
        (["reprocess", "--all"], SIGTERM),
        (["config", "set", "palette.colors", "4"], SIGTERM),
    ])
    func aSignalEndsAWaitForABusyCatalog(arguments: [String], signal: Int32) async throws {
        let folder = try TemporaryFolder()
        try folder.write(Hostile.photo(1), to: "photos/a.jpg")
        let setUp = try await CLI.run(["--catalog", "c.sqlite", "import", "photos", "--pack", "p"], in: folder, environment: Hostile.fastImport)
        #expect(setUp.status == 0, "\(setUp.stderr)")
        try folder.write(Hostile.photo(2), to: "photos/b.jpg")

        let holder = try holdLock(on: folder.path("c.sqlite"))
        defer { holder.terminate() }
        var environment = Hostile.fastImport
        environment["CATALOG_BUSY_TIMEOUT"] = "60"
        let waiting = try CLI.start(["--catalog", "c.sqlite"] + arguments, in: folder, environment: environment)
        try await Task.sleep(for: .seconds(1.5))
        #expect(waiting.process.isRunning, "it should be waiting for the lock")
        let signalled = ContinuousClock.now
        kill(waiting.pid, signal)
        let result = await waiting.wait()
        // To the exit as the termination handler saw it: the test's own wait for the pool is not the command's.
        let took = (waiting.process.exitTime ?? .now) - signalled
        #expect(took < .seconds(2), "took \(took) after the signal")
        #expect(result.status == 128 + signal, "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))

        holder.terminate()
        await holder.exited()
        try await Hostile.expectSound("c.sqlite", in: folder)
        let list = try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder)
        #expect((list.json as? [Any])?.count == 1)
    }
}
