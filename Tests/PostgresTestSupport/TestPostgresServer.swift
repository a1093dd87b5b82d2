import Catalog
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server of the test process's own: `initdb` into a new folder under /tmp, `pg_ctl start`
/// with its Unix socket in that folder and no TCP (`listen_addresses = ''`), `fsync = off`. Run as the
/// unprivileged `postgres` user when the tests run as root (initdb refuses root), with the folder owned by it.
///
/// One server per test process (``shared``), started on first use and stopped at exit; a fresh database per
/// test (``makeDatabase(migrated:owner:)``, a copy of a migrated template, which is fast). A server left by a
/// crashed run is stopped and its folder removed by the next run. When PostgreSQL is not installed, ``shared``
/// is unavailable and says why, and the tests that need it are skipped (`make test` installs it).
public final class TestPostgresServer: Sendable {
    /// The server's superuser, trusted on the socket.
    public static let superuser = "postgres"
    /// A role that must give a password (scram-sha-256), for the credential tests.
    public static let passwordUser = "catalog_pw"
    /// ``passwordUser``'s password.
    public static let password = "s3cret:with\\colon"

    /// The folder holding the data directory, the socket and the log.
    public let folder: String
    /// The port number naming the socket file (no TCP listener).
    public let port = 5432
    private let tools: PostgresTools
    private let databases = DatabaseFactory()

    /// The process's server, or why there is none.
    public static let shared: Result<TestPostgresServer, Unavailable> = {
        do {
            let server = try TestPostgresServer()
            atexit { if case .success(let server) = TestPostgresServer.shared { server.stop() } }
            return .success(server)
        } catch let error as Unavailable {
            return .failure(error)
        } catch {
            return .failure(Unavailable(reason: "the test PostgreSQL server did not start: \(error)"))
        }
    }()

    /// Whether ``shared`` is running (for `.enabled(if:)`).
    public static var isAvailable: Bool {
        if case .success = shared { return true }
        return false
    }

    /// The server, for tests that are enabled only when ``isAvailable``.
    public static var server: TestPostgresServer {
        get throws { try shared.get() }
    }

    /// Why no server could be started.
    public struct Unavailable: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    private init() throws {
        guard let tools = PostgresTools.find() else {
            throw Unavailable(reason: "PostgreSQL is not installed (no initdb: neither $STICKER_PG_BINDIR, `pg_config --bindir` "
                + "nor /usr/lib/postgresql/*/bin); `make test` installs Debian's postgresql, or apt-get install postgresql")
        }
        self.tools = tools
        StaleServers.stopAll(tools: tools)
        folder = try StaleServers.makeFolder(owner: tools.serverUser)
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    private func start() throws {
        let data = folder + "/data"
        try tools.runAsServer("initdb", ["-D", data, "-U", Self.superuser, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        let settings = """

            # Test server of sticker-catalog (Tests/PostgresTestSupport): socket only, no durability.
            listen_addresses = ''
            unix_socket_directories = '\(folder)'
            port = \(port)
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            max_connections = 300
            shared_buffers = 32MB

            """
        try tools.appendAsServer(settings, to: data + "/postgresql.conf")
        let access = """
            local all \(Self.passwordUser) scram-sha-256
            local all all trust

            """
        try tools.writeAsServer(access, to: data + "/pg_hba.conf")
        try tools.runAsServer("pg_ctl", ["start", "-w", "-t", "60", "-s", "-D", data, "-l", folder + "/server.log"])
        let quotedPassword = Self.password.replacingOccurrences(of: "'", with: "''")
        _ = try psql("CREATE ROLE \(Self.passwordUser) LOGIN PASSWORD '\(quotedPassword)'")
    }

    /// Stops the server (immediately: its data is thrown away) and removes its folder.
    public func stop() {
        _ = try? tools.runAsServer("pg_ctl", ["stop", "-s", "-m", "immediate", "-D", folder + "/data"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The address of `database` on this server, as a user types it: `postgres://USER@/DB?host=FOLDER&port=PORT`.
    public func address(database: String, user: String = TestPostgresServer.superuser) -> String {
        let encodedFolder = folder.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? folder
        return "postgres://\(user)@/\(database)?host=\(encodedFolder)&port=\(port)"
    }

    /// A new database for one test: empty (`migrated: false`), or with the catalog's schema already applied
    /// (a copy of a template migrated once per process, its tables the superuser's). `owner` gets the
    /// database and its `public` schema (the password role, say, with `migrated: false`).
    public func makeDatabase(migrated: Bool = true, owner: String = TestPostgresServer.superuser) async throws -> String {
        try await databases.make(server: self, migrated: migrated, owner: owner)
    }

    /// Runs SQL through `psql` as the superuser and returns its unaligned, tuples-only output.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try tools.psql(sql, folder: folder, port: port, database: database)
    }
}

/// Hands out database names and makes the migrated template once.
private actor DatabaseFactory {
    private var counter = 0
    /// Made once; every caller waits for the same task (the actor is re-entered while it runs).
    private var template: Task<Void, any Error>?
    static let template = "catalog_template"

    func make(server: TestPostgresServer, migrated: Bool, owner: String) async throws -> String {
        if migrated {
            if template == nil {
                template = Task {
                    try server.psql("CREATE DATABASE \(Self.template)")
                    let address = try PostgresAddress(parsing: server.address(database: Self.template))
                    let database = try await PostgresCatalogDatabase.open(address: address, access: .readWrite, environment: [:])
                    await database.close()
                }
            }
            try await template?.value
        }
        counter += 1
        let name = "test_\(counter)"
        let template = migrated ? Self.template : "template0"
        if migrated { try waitUntilTemplateIsFree(server) }
        try server.psql("CREATE DATABASE \(name) TEMPLATE \(template) OWNER \(owner)")
        if owner != TestPostgresServer.superuser {
            // PostgreSQL 15 lets only the schema's owner create in `public`: the database's owner gets it.
            try server.psql("ALTER SCHEMA public OWNER TO \(owner)", database: name)
        }
        return name
    }

    /// PostgreSQL copies a template only while nobody is connected to it, and waits just 5 s for that: the
    /// backend of the connection that migrated it may take longer to exit on a busy machine.
    private func waitUntilTemplateIsFree(_ server: TestPostgresServer) throws {
        let query = "SELECT pid, state, backend_start FROM pg_stat_activity WHERE datname = '\(Self.template)'"
        let deadline = Date().addingTimeInterval(120)
        while true {
            let sessions = try server.psql(query).trimmingCharacters(in: .whitespacesAndNewlines)
            if sessions.isEmpty { return }
            if Date() > deadline {
                throw ToolFailure(command: "CREATE DATABASE … TEMPLATE \(Self.template)", status: 1, stderr: "still in use after 120 s: \(sessions)")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }
}
