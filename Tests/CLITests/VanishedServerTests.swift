import Foundation
import Synchronization
import TestProcessSupport
import PostgresTestSupport
import Testing

/// A worker whose server vanishes without closing its connections (the server's machine powered off, a
/// network cut): TCP keepalives and the retransmission limit of the address (`keepalives_*`,
/// `tcp_user_timeout`) find the connection dead, the worker tries to reconnect for `--reconnect-for`,
/// and it then stops with exit 69. Without them its next statement waited for TCP's own limits (some
/// fifteen minutes) and the worker hung meanwhile.
///
/// Needs network namespaces (a host whose interface goes down); on loopback nothing can be cut, and the
/// test says so and stops.
@Suite(.needsModel, .enabled(if: NetworkedPostgresServer.isInstalled, "PostgreSQL is not installed (make test installs it)"), .timeLimit(.minutes(15)))
struct VanishedServerTests {
    @Test func aWorkerWhoseServerVanishesStopsWithExit69InsteadOfHanging() async throws {
        let network = TestNetwork.make(hosts: ["gone-db", "gone-w1"])
        defer { network.remove() }
        if let reason = network.fallbackReason {
            print("VanishedServerTests: \(reason): a host cannot be cut off on loopback, so this test does not run")
            return
        }
        let database = network.host("gone-db")
        let server = try NetworkedPostgresServer(host: database.address, port: 5432, subnet: network.subnet, launcher: network.launcher(for: database))
        defer { server.stop() }
        try server.psql("CREATE DATABASE gone")
        // Short limits, so the test takes seconds: a dead peer found after 2 s of unacknowledged data or
        // 1 s idle + 2 probes 1 s apart, connecting given up after 3 s.
        let catalog = server.address(database: "gone")
            + "&keepalives_idle=1&keepalives_interval=1&keepalives_count=2&tcp_user_timeout=2000&connect_timeout=3"
        let folder = try TemporaryFolder()
        let photos = try folder.writeNumberedCopies(8, width: 640, height: 480)
        let host = network.host("gone-w1")
        let enqueue = try HostProcess.run(network.command(on: host, [CLI.binary.path, "--catalog", catalog, "import", "--enqueue", photos]), in: folder)
        try #require(enqueue.status == 0, "\(enqueue.stderr)")

        let worker = try HostProcess(
            network.command(on: host, [CLI.binary.path, "--catalog", catalog, "work", "--json", "--jobs", "1", "--reconnect-for", "10s"]),
            name: "gone-w1", in: folder)
        defer { worker.kill() }
        // The cut is made by a watcher on a thread of its own, the moment the first photo is in: mid-run
        // however busy the test pool is.
        let cutMade = Mutex(false)
        await act(when: { !worker.isRunning || !worker.imported.isEmpty }, within: .seconds(300), every: .milliseconds(20)) {
            guard worker.isRunning, !worker.imported.isEmpty else { return }
            cutMade.withLock { $0 = (try? network.disconnect(database)) != nil }
        }
        try #require(!worker.imported.isEmpty, "nothing imported in 300 s: \(worker.stderr)")
        try #require(cutMade.withLock { $0 }, "the worker ended before the cut: \(worker.stderr)")
        let cut = Date()
        var deadline: Date
        // 2 s to find the connection dead, 10 s of retries, each connect given up after 3 s: well under a minute.
        deadline = cut.addingTimeInterval(180)
        while worker.isRunning && Date() < deadline { try await Task.sleep(for: .seconds(0.2)) }
        let stoppedAfter = Date().timeIntervalSince(cut)
        #expect(!worker.isRunning, "the worker still runs \(Int(stoppedAfter)) s after its server vanished: \(worker.stderr)")
        guard !worker.isRunning else { return }
        #expect(worker.wait() == 69, "\(worker.stderr)")
        #expect(worker.stderr.contains("lost the catalog's server"), "\(worker.stderr)")
        print("VanishedServerTests: the worker stopped \(String(format: "%.1f", stoppedAfter)) s after its server was cut off")
    }
}
