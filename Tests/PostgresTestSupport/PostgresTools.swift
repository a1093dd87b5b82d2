import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// PostgreSQL's programs (`initdb`, `pg_ctl`, `psql`) and how to run the server's ones: directly, or as the
/// unprivileged `postgres` user (through `runuser`) when the tests run as root, which initdb refuses.
struct PostgresTools: Sendable {
    /// The folder of the server's programs.
    let binaryFolder: String
    /// The user the server runs as when the tests run as root: (name, uid, gid); nil when not root.
    let serverUser: (name: String, uid: uid_t, gid: gid_t)?

    /// The installed server, found through `$STICKER_PG_BINDIR`, `pg_config --bindir`, or the newest
    /// `/usr/lib/postgresql/N/bin`; nil when there is none (or when root and no `postgres` user exists).
    static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> PostgresTools? {
        var candidates: [String] = []
        if let explicit = environment["STICKER_PG_BINDIR"], !explicit.isEmpty { candidates.append(explicit) }
        if let bindir = try? run(executable: "/usr/bin/env", ["pg_config", "--bindir"]) {
            candidates.append(bindir.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.compactMap(Int.init).sorted(by: >) { candidates.append("/usr/lib/postgresql/\(version)/bin") }
        guard let folder = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }) else {
            return nil
        }
        guard getuid() == 0 else { return PostgresTools(binaryFolder: folder, serverUser: nil) }
        guard let entry = getpwnam("postgres") else { return nil }
        return PostgresTools(binaryFolder: folder, serverUser: ("postgres", entry.pointee.pw_uid, entry.pointee.pw_gid))
    }

    /// Runs a PostgreSQL client program (psql) as ourselves.
    @discardableResult
    func run(_ program: String, _ arguments: [String]) throws -> String {
        try Self.run(executable: programPath(program), arguments)
    }

    /// Runs SQL through `psql` as the superuser on the server whose socket is in `folder`; its unaligned,
    /// tuples-only output. Every test server's `psql(_:database:)` is this.
    @discardableResult
    func psql(_ sql: String, folder: String, port: Int, database: String) throws -> String {
        try run("psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", String(port),
                         "-U", TestPostgresServer.superuser, "-d", database, "-c", sql])
    }

    /// Runs a server program (initdb, pg_ctl) as the server's user; `launcher` runs it (`ip netns exec NS`:
    /// on a test host of its own, where the server it starts stays).
    @discardableResult
    func runAsServer(_ program: String, _ arguments: [String], launcher: [String] = []) throws -> String {
        var command = [programPath(program)] + arguments
        if let serverUser { command = ["/usr/sbin/runuser", "-u", serverUser.name, "--"] + command }
        command = launcher + command
        return try Self.run(executable: command[0], Array(command.dropFirst()))
    }

    /// Appends `text` to a file of the server's (owned by its user, as initdb made it).
    func appendAsServer(_ text: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Replaces a file of the server's, keeping it owned by the server's user.
    func writeAsServer(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        if let serverUser { chown(path, serverUser.uid, serverUser.gid) }
    }

    private func programPath(_ program: String) -> String {
        let own = binaryFolder + "/" + program
        return FileManager.default.isExecutableFile(atPath: own) ? own : "/usr/bin/" + program
    }

    /// Runs `executable` with a scrubbed PostgreSQL environment and returns its stdout; throws with its
    /// stderr when it fails.
    ///
    /// posix_spawn and waitpid rather than Foundation's Process, whose exit monitoring lost the exit of
    /// `runuser pg_ctl start` here (the test process hung with a zombie). Output goes through files, not
    /// pipes: the server that `pg_ctl start` leaves running holds what it inherited, and a pipe it held
    /// would never reach its end.
    static func run(executable: String, _ arguments: [String]) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("PG") { environment[key] = nil }
        environment["LC_ALL"] = "C"
        let base = FileManager.default.temporaryDirectory.appending(path: "pg-tool-\(UUID().uuidString)").path
        let outputPath = base + ".out", errorPath = base + ".err"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw ToolFailure(command: executable, status: spawned, stderr: String(cString: strerror(spawned)))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let stdout = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS are macros Swift cannot call: the low 7 bits are the signal, bits 8-15 the code.
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exitCode == 0 else {
            throw ToolFailure(command: ([executable] + arguments).joined(separator: " "), status: exitCode, stderr: stderr)
        }
        return stdout
    }
}

/// A PostgreSQL program that failed, with what it said.
struct ToolFailure: Error, CustomStringConvertible {
    let command: String
    let status: Int32
    let stderr: String
    var description: String { "\(command) exited \(status): \(stderr)" }
}

/// Servers of earlier test runs that crashed (or were killed) before stopping theirs: each server's folder
/// records the test process that started it, and a folder whose process is gone is cleaned up.
enum StaleServers {
    static let prefix = "sc-pg-"

    static func stopAll(tools: PostgresTools) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for entry in entries where entry.hasPrefix(prefix) {
            let folder = "/tmp/" + entry
            guard let text = try? String(contentsOfFile: folder + "/owner.pid", encoding: .utf8),
                  let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            _ = try? tools.runAsServer("pg_ctl", ["stop", "-s", "-m", "immediate", "-D", folder + "/data"])
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// A new folder `/tmp/sc-pg-XXXXXX` (short: the socket path must fit in 107 bytes) that records our pid,
    /// owned by the server's user when there is one.
    static func makeFolder(owner: (name: String, uid: uid_t, gid: gid_t)?) throws -> String {
        var template = Array("/tmp/\(prefix)XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ToolFailure(command: "mkdtemp", status: errno, stderr: "") }
        let folder = String(cString: made)
        try "\(getpid())\n".write(toFile: folder + "/owner.pid", atomically: true, encoding: .utf8)
        if let owner {
            chown(folder, owner.uid, owner.gid)
        }
        chmod(folder, 0o755)
        return folder
    }
}
