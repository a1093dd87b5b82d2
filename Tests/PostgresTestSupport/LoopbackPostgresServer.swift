import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of the test process's own listening on a loopback TCP port (TLS is never used on a
/// Unix socket), for the `sslmode` tests: ``withTLS`` has `ssl = on` with ``TestCertificates`` made for it and
/// lets TCP clients in only over TLS (`hostssl`), ``plain`` has no TLS at all. Both trust the superuser and ask
/// ``TestPostgresServer/passwordUser`` for its password (scram-sha-256); the socket in their folder is for the
/// test's own `psql`.
///
/// Each is started on first use and stopped at exit; a server left by a crashed run is cleaned up by the next
/// one (as ``TestPostgresServer``'s are).
public final class LoopbackPostgresServer: Sendable {
    /// The folder holding the data directory, the socket, the certificates and the log.
    public let folder: String
    /// The loopback TCP port it listens on (127.0.0.1).
    public let port: Int
    /// The certificates it serves, for ``withTLS``; nil for ``plain``.
    public let certificates: TestCertificates?
    private let tools: PostgresTools

    /// The process's TLS-only server, or why there is none.
    public static let withTLS: Result<LoopbackPostgresServer, TestPostgresServer.Unavailable> = start(tls: true)
    /// The process's server without TLS, or why there is none.
    public static let plain: Result<LoopbackPostgresServer, TestPostgresServer.Unavailable> = start(tls: false)

    /// Whether both servers can run (PostgreSQL and openssl installed; for `.enabled(if:)`).
    public static var isAvailable: Bool {
        PostgresTools.find() != nil && TestCertificates.isAvailable
    }

    private static func start(tls: Bool) -> Result<LoopbackPostgresServer, TestPostgresServer.Unavailable> {
        do {
            let server = try LoopbackPostgresServer(tls: tls)
            if tls {
                atexit { if case .success(let server) = LoopbackPostgresServer.withTLS { server.stop() } }
            } else {
                atexit { if case .success(let server) = LoopbackPostgresServer.plain { server.stop() } }
            }
            return .success(server)
        } catch let error as TestPostgresServer.Unavailable {
            return .failure(error)
        } catch {
            return .failure(TestPostgresServer.Unavailable(reason: "the loopback test PostgreSQL server did not start: \(error)"))
        }
    }

    private init(tls: Bool) throws {
        guard let tools = PostgresTools.find() else {
            throw TestPostgresServer.Unavailable(reason: "PostgreSQL is not installed (make test installs it)")
        }
        self.tools = tools
        StaleServers.stopAll(tools: tools)
        folder = try StaleServers.makeFolder(owner: tools.serverUser)
        do {
            certificates = tls ? try TestCertificates(in: folder, keyOwner: tools.serverUser) : nil
            // Another process may take the port between its release here and the server's bind; pg_ctl then
            // fails and the next port is tried.
            var started: Int?
            var lastError: (any Error)?
            for _ in 0..<5 where started == nil {
                let candidate = try unusedLoopbackPort()
                do {
                    try Self.start(tools: tools, folder: folder, port: candidate, certificates: certificates)
                    started = candidate
                } catch {
                    lastError = error
                    _ = try? tools.runAsServer("pg_ctl", ["stop", "-s", "-m", "immediate", "-D", folder + "/data"])
                    try? FileManager.default.removeItem(atPath: folder + "/data")
                }
            }
            guard let started else { throw lastError ?? TestPostgresServer.Unavailable(reason: "no loopback port") }
            port = started
            let password = TestPostgresServer.password.replacingOccurrences(of: "'", with: "''")
            try tools.psql(
                "CREATE ROLE \(TestPostgresServer.passwordUser) LOGIN PASSWORD '\(password)'", folder: folder, port: port, database: "postgres")
        } catch {
            _ = try? tools.runAsServer("pg_ctl", ["stop", "-s", "-m", "immediate", "-D", folder + "/data"])
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    private static func start(tools: PostgresTools, folder: String, port: Int, certificates: TestCertificates?) throws {
        let data = folder + "/data"
        try tools.runAsServer("initdb", ["-D", data, "-U", TestPostgresServer.superuser, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        var settings = """

            # Loopback test server of sticker-catalog (Tests/PostgresTestSupport), for the sslmode tests.
            listen_addresses = '127.0.0.1'
            unix_socket_directories = '\(folder)'
            port = \(port)
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            shared_buffers = 32MB
            password_encryption = 'scram-sha-256'

            """
        // Clients on TCP get in over TLS only (hostssl), so a client that will not use TLS is refused.
        let kind = certificates == nil ? "host" : "hostssl"
        if let certificates {
            settings += """
                ssl = on
                ssl_cert_file = '\(certificates.serverCertificate)'
                ssl_key_file = '\(certificates.serverKey)'

                """
        }
        try tools.appendAsServer(settings, to: data + "/postgresql.conf")
        try tools.writeAsServer("""
            local all all trust
            \(kind) all \(TestPostgresServer.passwordUser) 127.0.0.1/32 scram-sha-256
            \(kind) all \(TestPostgresServer.passwordUser) ::1/128 scram-sha-256
            \(kind) all all 127.0.0.1/32 trust
            \(kind) all all ::1/128 trust

            """, to: data + "/pg_hba.conf")
        try tools.runAsServer("pg_ctl", ["start", "-w", "-t", "120", "-s", "-D", data, "-l", folder + "/server.log"])
    }

    /// Stops the server at once and removes its folder.
    public func stop() {
        _ = try? tools.runAsServer("pg_ctl", ["stop", "-s", "-m", "immediate", "-D", folder + "/data"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The TCP address of `database` as a user types it: `postgres://USER@HOST:PORT/DB`, then `parameters`
    /// (`sslmode=…&sslrootcert=…`) when given.
    public func address(database: String = "postgres", user: String = TestPostgresServer.superuser,
                        host: String = "127.0.0.1", parameters: String = "") -> String {
        "postgres://\(user)@\(host):\(port)/\(database)" + (parameters.isEmpty ? "" : "?" + parameters)
    }

    /// A new empty database owned by `owner` (its `public` schema too), for one test.
    public func makeDatabase(owner: String = TestPostgresServer.superuser) throws -> String {
        let name = "tls_" + UUID().uuidString.prefix(8).lowercased()
        try psql("CREATE DATABASE \(name) OWNER \(owner)")
        try psql("ALTER SCHEMA public OWNER TO \(owner)", database: name)
        return name
    }

    /// Runs SQL through `psql` on the server's socket as the superuser; its unaligned, tuples-only output.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try tools.psql(sql, folder: folder, port: port, database: database)
    }

    /// The server's log (for a failure message).
    public var log: String {
        (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
    }
}
