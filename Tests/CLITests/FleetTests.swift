import Foundation
import TestProcessSupport

#if canImport(Glibc)
import Glibc
#endif
import PostgresTestSupport
import Testing

/// Issue 18's "many machines": one host runs PostgreSQL, three run `catalog work` on one folder of photos
/// (a shared mount: the hosts share the file system). One worker is killed with SIGKILL in the middle of
/// its work, and the server is stopped and started again while the others work: they reconnect and go on,
/// and in the end every photo is done exactly once, no entry is duplicated or lost, `verify` is sound and
/// nothing is left claimed.
///
/// The hosts are network namespaces with veth pairs to a bridge in a namespace of its own, addresses from
/// 198.18.0.0/15, each worker with a host name of its own (``TestNetwork``). Where namespaces cannot be
/// made (not root, no `ip`), the same test runs with processes on loopback and prints why.
@Suite(.needsModel, .enabled(if: NetworkedPostgresServer.isInstalled, "PostgreSQL is not installed (make test installs it)"), .timeLimit(.minutes(15)))
struct FleetTests {
    static let photoCount = 18

    @Test func threeWorkersOnThreeHostsSurviveAKilledWorkerAndAServerRestart() async throws {
        let network = TestNetwork.make(hosts: ["fleet-db", "fleet-w1", "fleet-w2", "fleet-w3"])
        defer { network.remove() }
        if let reason = network.fallbackReason {
            print("FleetTests: \(reason): the hosts run as processes on loopback (127.0.0.1), not in network namespaces")
        }
        let database = network.host("fleet-db")
        let server = try NetworkedPostgresServer(
            host: database.address, port: network.isolated ? 5432 : try unusedLoopbackPort(), subnet: network.subnet,
            launcher: network.launcher(for: database))
        defer { server.stop() }
        try server.psql("CREATE DATABASE fleet")
        let catalog = server.address(database: "fleet")
        let local = server.socketAddress(database: "fleet")
        let folder = try TemporaryFolder()
        // 640 × 480: about a second each, so the kill and the restart land while the workers work.
        let photos = try folder.writeNumberedCopies(Self.photoCount, width: 640, height: 480)
        let hosts = ["fleet-w1", "fleet-w2", "fleet-w3"].map(network.host)

        let enqueue = try HostProcess.run(network.command(on: hosts[0], [CLI.binary.path, "--catalog", catalog, "import", "--enqueue", photos]), in: folder)
        try #require(enqueue.status == 0, "\(enqueue.stderr)")

        let workers = try hosts.map { host in
            try HostProcess(
                network.command(on: host, [CLI.binary.path, "--catalog", catalog, "work", "--json", "--jobs", "1", "--lease", "6s", "--reconnect-for", "90s"]),
                name: host.name, in: folder)
        }
        defer { workers.forEach { $0.kill() } }
        let deadline = Date().addingTimeInterval(400)

        // The steps that must land while the workers work run on a thread of their own, begun the moment
        // the workers are: a test awaiting on a pool that busy tests fill has seen all 18 photos done
        // before its first look. Who holds what, as `work --status` shows it: each host under its own
        // name. Then the first worker dies in the middle of its work (it claimed its next photo as it
        // committed the first), and the server goes away while the others work, for long enough that
        // they notice.
        let first = workers[0], others = Array(workers[1...])
        let steps = await onThreadOfItsOwn { () -> FleetSteps in
            var steps = FleetSteps()
            _ = poll(until: {
                steps.holders.formUnion(Self.holders(local, in: folder))
                return !steps.holders.isEmpty || !first.isRunning
            }, within: .seconds(300), every: .milliseconds(20))
            _ = poll(until: { first.imported.count >= 1 || !first.isRunning }, within: .seconds(300), every: .milliseconds(20))
            first.kill()
            steps.held = poll(until: { others.map(\.imported.count).reduce(0, +) >= 3 || !others[0].isRunning }, within: .seconds(300), every: .milliseconds(20))
            steps.stopped = (try? server.stopFast()) != nil
            return steps
        }
        let holders = steps.holders
        try #require(steps.stopped, "the server could not be stopped")
        #expect(steps.held, "the workers had not imported 3 photos in 300 s")
        let importedBeforeRestart = workers.map(\.imported.count).reduce(0, +)
        try await Task.sleep(for: .seconds(3))
        try server.start()

        guard try await waitUntil(deadline, workers, server, { !workers[1].isRunning && !workers[2].isRunning }) else { return }
        let statuses = workers.map { $0.wait() }
        let detail = workers.map { "\($0.name): \($0.stderr)" }.joined(separator: "\n")
        #expect(statuses == [137, 0, 0], "\(detail)")

        // Every worker that met the outage said so once, and once that it was back.
        for worker in workers[1...] {
            let lines = worker.stderr.split(separator: "\n")
            let lost = lines.filter { $0.contains("lost the catalog's server") }.count
            let back = lines.filter { $0.contains("reconnected to the catalog's server") }.count
            #expect(lost <= 1 && lost == back, "\(worker.name): \(worker.stderr)")
        }
        let notices = workers.map { $0.stderr.components(separatedBy: "lost the catalog's server").count - 1 }
        print("FleetTests: hosts \(network.isolated ? "in network namespaces (198.18.0.0/24)" : "on loopback"); photos imported per worker "
            + "\(workers.map(\.imported.count)), \(importedBeforeRestart) before the server's restart; outages reported per worker \(notices)")
        let imported = workers.flatMap(\.imported)
        #expect(imported.count == Set(imported).count, "a photo imported twice: \(imported.sorted())")
        #expect(imported.count > importedBeforeRestart, "nothing was imported after the restart:\n\(detail)")

        // Every photo done exactly once: one entry per file, nothing failed, pending or claimed.
        let status = try await queue(local, in: folder)
        #expect(status.done == Self.photoCount && status.failed == 0 && status.pending == 0 && status.claimed == 0, "\(status)\n\(detail)")
        let list = try await CLI.run(["--catalog", local, "list", "--json"], in: folder)
        let entries = try #require(list.json as? [[String: Any]], "\(list.stderr)")
        let paths = entries.compactMap { $0["path"] as? String }
        let files = try FileManager.default.contentsOfDirectory(atPath: photos).map { photos + "/" + $0 }
        #expect(paths.count == Self.photoCount && Set(paths) == Set(files), "\(paths.sorted())")
        #expect(entries.allSatisfy { $0["status"] as? String == "ok" }, "\(entries)")
        let verify = try await Reliability.verify(local, in: folder)
        #expect(verify.status == 0, "\(verify.report) \(verify.stderr)")
        if network.isolated {
            #expect(holders.contains { $0.hasPrefix("fleet-w") }, "holders seen: \(holders)")
        }
    }

    /// The host part of each holder `work --status --json` lists, run to its end on the calling thread
    /// (none when it fails: the next look may succeed).
    private static func holders(_ catalog: String, in folder: TemporaryFolder) -> [String] {
        guard let run = try? HostProcess.run([CLI.binary.path, "--catalog", catalog, "work", "--status", "--json"], in: folder),
              run.status == 0, let json = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        else { return [] }
        return QueueStatus(json).holders
    }

    /// The queue as `work --status --json` shows it.
    private func queue(_ catalog: String, in folder: TemporaryFolder) async throws -> QueueStatus {
        let run = try await CLI.run(["--catalog", catalog, "work", "--status", "--json"], in: folder)
        return QueueStatus(try #require(run.json as? [String: Any], "\(run.stderr)"))
    }

    /// Polls `condition` every 200 ms until it holds; false when `deadline` passes first, recorded as a
    /// failure with every worker's state and the server's log (a worker that stops making progress while
    /// its lease renewal keeps its claim alive would otherwise hold the run forever).
    private func waitUntil(_ deadline: Date, _ workers: [HostProcess], _ server: NetworkedPostgresServer, _ condition: () async throws -> Bool) async throws -> Bool {
        while try await !condition() {
            if Date() >= deadline {
                let state = workers.map { "\($0.name) (\($0.isRunning ? "running" : "ended")): \($0.imported.count) imported; \($0.stderr)" }
                Issue.record("the fleet test ran past its deadline:\n\(state.joined(separator: "\n"))\nserver log:\n\(server.log.suffix(3000))")
                return false
            }
            try await Task.sleep(for: .seconds(0.2))
        }
        return true
    }
}

/// What the steps run beside the workers saw and did.
struct FleetSteps: Sendable {
    var holders: Set<String> = []
    /// Whether the others had imported 3 photos before the server was stopped.
    var held = false
    var stopped = false
}

/// `catalog work --status --json`, read.
struct QueueStatus: CustomStringConvertible {
    let pending, claimed, done, failed: Int
    /// The host part of each holder (`HOST:PID`).
    let holders: [String]

    init(_ json: [String: Any]) {
        pending = json["pending"] as? Int ?? -1
        claimed = json["claimed"] as? Int ?? -1
        done = json["done"] as? Int ?? -1
        failed = json["failed"] as? Int ?? -1
        holders = (json["holders"] as? [[String: Any]] ?? []).compactMap { ($0["holder"] as? String)?.split(separator: ":").first.map(String.init) }
    }

    var description: String { "pending \(pending), claimed \(claimed), done \(done), failed \(failed), holders \(holders)" }
}

/// A command run on a test host (`ip netns exec …`, or as it is on loopback), its output in files of the
/// test's folder. Spawned and reaped with posix_spawn and waitpid (WNOHANG), not Foundation's Process,
/// whose exit monitoring has been seen to lose a child's exit (see PostgresTools).
/// Unchecked: the exit status is reaped by whoever holds it, the test or, while the test awaits it, one watcher (`act`).
final class HostProcess: @unchecked Sendable {
    let name: String
    private let pid: pid_t
    /// The exit status once reaped (128 + the signal for a signal), nil while it runs.
    private var status: Int32?
    private let outPath: String
    private let errPath: String

    init(_ command: [String], name: String, in folder: TemporaryFolder) throws {
        self.name = name
        outPath = folder.path(".out-\(name)-\(UUID().uuidString)")
        errPath = folder.path(".err-\(name)-\(UUID().uuidString)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = command.map { strdup($0) } + [nil]
        let envp = CLI.environment(in: folder).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        pid = child
    }

    /// Runs `command` to its end.
    static func run(_ command: [String], in folder: TemporaryFolder) throws -> (status: Int32, stdout: String, stderr: String) {
        let running = try HostProcess(command, name: "run", in: folder)
        let status = running.wait()
        return (status, running.stdout, running.stderr)
    }

    var isRunning: Bool {
        reap(blocking: false)
        return status == nil
    }

    var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    /// The paths of its `{"event": "imported"}` lines so far.
    var imported: [String] {
        stdout.split(separator: "\n").compactMap { line -> String? in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  event["event"] as? String == "imported" else { return nil }
            return event["path"] as? String
        }
    }

    /// SIGKILL, unless it has ended.
    func kill() {
        if isRunning { Glibc.kill(pid, SIGKILL) }
    }

    /// Waits for its end; the exit status, or 128 + the signal that ended it (-1 if it could not be learnt).
    @discardableResult
    func wait() -> Int32 {
        reap(blocking: true)
        return status ?? -1
    }

    private func reap(blocking: Bool) {
        guard status == nil else { return }
        var raw: Int32 = 0
        var reaped = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
        while reaped < 0 && errno == EINTR { reaped = waitpid(pid, &raw, blocking ? 0 : WNOHANG) }
        if reaped == pid {
            // WIFEXITED and WEXITSTATUS are macros Swift cannot call: the low 7 bits are the signal, bits 8-15 the code.
            status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        } else if reaped < 0 {
            status = -1  // not our child any more (reaped elsewhere)
        }
    }
}
