import Foundation
import Synchronization
import TestProcessSupport
import PostgresTestSupport
import Testing

/// A PostgreSQL server that goes away in the middle of a command (issue 18, "bad input"): the command
/// says so clearly and exits 69; what it committed before stays, nothing is half-written, and a re-run
/// after the server is back does the rest. The server is one of the test's own (on loopback), so it can
/// be stopped without disturbing the other tests' server. The outage must land mid-run: the
/// tests watch the command's output and no test blocks a thread of the test pool, so they resume on time.
@Suite(.needsModel, .enabled(if: NetworkedPostgresServer.isInstalled, "PostgreSQL is not installed (make test installs it)"), .timeLimit(.minutes(15)))
struct PostgresOutageTests {
    static func text(of url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    /// How many `{"event": EVENT}` lines the NDJSON file at `url` holds so far.
    static func events(_ event: String, in url: URL) -> Int {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["event"] as? String == event
        }.count
    }

    @Test func aServerThatGoesAwayMidImportLosesNothing() async throws {
        let port = try unusedLoopbackPort()
        let server = try NetworkedPostgresServer(host: "127.0.0.1", port: port, subnet: "127.0.0.1/32", launcher: [])
        defer { server.stop() }
        try server.psql("CREATE DATABASE outage")
        let catalog = server.address(database: "outage")
        let folder = try TemporaryFolder()
        let count = 12
        // 640 × 480: about a second each, so the server stops with most of the import still to do.
        let photos = try folder.writeNumberedCopies(count, width: 640, height: 480)
        let stdout = folder.url.appendingPathComponent(".import-out"), stderr = folder.url.appendingPathComponent(".import-err")
        let importing = try CLI.start(["--catalog", catalog, "import", photos, "--jobs", "1", "--json"], in: folder, stdout: stdout, stderr: stderr)
        defer { if importing.isRunning { kill(importing.processIdentifier, SIGKILL) } }
        let deadline = Date().addingTimeInterval(120)
        func imported() -> [String] {
            folder.jsonLines(at: stdout).filter { $0["event"] as? String == "imported" }.compactMap { $0["path"] as? String }
        }
        // Stopped by a watcher on a thread of its own the moment two photos are in: mid-run however busy the test pool is.
        let stopped = Mutex(false)
        await act(when: { !importing.isRunning || Self.events("imported", in: stdout) >= 2 }, within: .seconds(120), every: .milliseconds(20)) {
            stopped.withLock { $0 = (try? server.stopFast()) != nil }
        }
        try #require(imported().count >= 2, "the import did not get going")
        try #require(stopped.withLock { $0 }, "the server could not be stopped")
        while importing.isRunning {
            try #require(Date() < deadline, "the import hung after its server went away")
            try await Task.sleep(for: .seconds(0.05))
        }
        let message = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(importing.terminationStatus == 69, "\(message)")
        #expect(message.contains("127.0.0.1:\(port)") && message.contains("cannot be reached"), "\(message)")
        let before = imported()
        #expect(before.count >= 2 && before.count < count, "\(before)")

        // Back: what was committed is there, whole; nothing was recorded as failed for the outage.
        try server.start()
        let verify = try await Reliability.verify(catalog, in: folder)
        #expect(verify.status == 0, "\(verify.report) \(verify.stderr)")
        let listed = try #require(try await CLI.run(["--catalog", catalog, "list", "--json"], in: folder).json as? [[String: Any]])
        #expect(Set(before).isSubset(of: Set(listed.compactMap { $0["path"] as? String })), "\(listed)")
        #expect(listed.allSatisfy { $0["status"] as? String == "ok" }, "\(listed)")

        // A re-run does the rest: every file once.
        let again = try await CLI.run(["--catalog", catalog, "import", photos, "--json"], in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        let after = try #require(try await CLI.run(["--catalog", catalog, "list", "--json"], in: folder).json as? [[String: Any]])
        let paths = after.compactMap { $0["path"] as? String }
        #expect(paths.count == count && Set(paths).count == count, "\(paths)")
        #expect(after.allSatisfy { $0["status"] as? String == "ok" }, "\(after)")
        #expect(try await Reliability.verify(catalog, in: folder).status == 0)
    }

    /// A worker signalled while its server is away stops at once with the signal's code: it cannot give its
    /// claims back, so they wait for their leases, and another worker takes them afterwards.
    @Test func aWorkerSignalledDuringAnOutageStopsAndLeavesItsClaimsToTheirLeases() async throws {
        let server = try NetworkedPostgresServer(host: "127.0.0.1", port: try unusedLoopbackPort(), subnet: "127.0.0.1/32", launcher: [])
        defer { server.stop() }
        try server.psql("CREATE DATABASE outage")
        let catalog = server.address(database: "outage")
        let folder = try TemporaryFolder()
        let count = 6
        let photos = try folder.writeNumberedCopies(count, width: 640, height: 480)
        #expect(try await CLI.run(["--catalog", catalog, "import", "--enqueue", photos], in: folder).status == 0)
        let stdout = folder.url.appendingPathComponent(".work-out"), stderr = folder.url.appendingPathComponent(".work-err")
        let worker = try CLI.start(
            ["--catalog", catalog, "work", "--json", "--jobs", "1", "--lease", "3s"], in: folder, stdout: stdout, stderr: stderr)
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
        let deadline = Date().addingTimeInterval(120)
        func said(_ text: String) -> Bool { ((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").contains(text) }
        // The stop and the signal are sent by watchers on threads of their own: mid-run however busy the test pool is.
        let stopped = Mutex(false)
        await act(when: { !worker.isRunning || Self.text(of: stdout).contains("\n") }, within: .seconds(120), every: .milliseconds(20)) {
            stopped.withLock { $0 = (try? server.stopFast()) != nil }
        }
        try #require(!folder.jsonLines(at: stdout).isEmpty, "the worker did not get going")
        try #require(stopped.withLock { $0 }, "the server could not be stopped")
        let noticed = await act(when: { !worker.isRunning || Self.text(of: stderr).contains("lost the catalog's server") }, within: .seconds(120)) {
            kill(worker.processIdentifier, SIGTERM)
        }
        try #require(noticed && said("lost the catalog's server"), "the worker did not notice the outage")
        while worker.isRunning {
            try #require(Date() < deadline, "the signalled worker did not stop")
            try await Task.sleep(for: .seconds(0.02))
        }
        let message = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(worker.terminationStatus == 143, "\(message)")
        let summary = try #require(folder.jsonLines(at: stdout).last)
        #expect(summary["event"] as? String == "summary" && summary["interrupted"] as? Bool == true, "\(summary)")
        // It held the photo it was working on, or nothing when the outage met it as it claimed the next one.
        let left = try #require(summary["leftClaimed"] as? Int)
        #expect(left <= 1 && summary["released"] as? Int == 0, "\(summary)")
        #expect(left == 0 || message.contains("1 left claimed until their leases run out"), "\(message)")

        // Back: another worker takes the abandoned claim once its lease has run out, and finishes the queue.
        try server.start()
        let rescue = try await CLI.run(["--catalog", catalog, "work", "--json"], in: folder)
        #expect(rescue.status == 0, "\(rescue.stderr)")
        let status = try #require(try await CLI.run(["--catalog", catalog, "work", "--status", "--json"], in: folder).json as? [String: Any])
        #expect(status["done"] as? Int == count && status["claimed"] as? Int == 0 && status["pending"] as? Int == 0, "\(status)")
        let listed = try #require(try await CLI.run(["--catalog", catalog, "list", "--json"], in: folder).json as? [Any])
        #expect(listed.count == count)
        #expect(try await Reliability.verify(catalog, in: folder).status == 0)
    }
}
