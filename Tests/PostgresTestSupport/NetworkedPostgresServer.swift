import Foundation

/// A PostgreSQL server of one test's own that listens on TCP, for clients on other test hosts: started on
/// a ``TestNetwork`` host (in its namespace, where its address is), trusting the network's subnet, with its
/// Unix socket in its folder too (sockets are files: the test process reaches it from any namespace).
/// Unlike ``TestPostgresServer`` it can be stopped and started again while clients work.
public final class NetworkedPostgresServer: Sendable {
    /// The folder holding the data directory, the socket and the log.
    public let folder: String
    /// The address it listens on and its port.
    public let host: String
    public let port: Int
    private let tools: PostgresTools
    private let launcher: [String]

    /// Whether PostgreSQL's server programs are installed (for `.enabled(if:)`).
    public static var isInstalled: Bool { PostgresTools.find() != nil }

    /// Starts a server listening on `host`:`port` and trusting `subnet` (CIDR); `launcher` runs `pg_ctl`
    /// (`ip netns exec NS` for a namespace). Throws ``TestPostgresServer/Unavailable`` without PostgreSQL.
    public init(host: String, port: Int, subnet: String, launcher: [String]) throws {
        guard let tools = PostgresTools.find() else {
            throw TestPostgresServer.Unavailable(reason: "PostgreSQL is not installed (make test installs it)")
        }
        self.tools = tools
        self.host = host
        self.port = port
        self.launcher = launcher
        StaleServers.stopAll(tools: tools)
        folder = try StaleServers.makeFolder(owner: tools.serverUser)
        do {
            let data = folder + "/data"
            try tools.runAsServer("initdb", ["-D", data, "-U", TestPostgresServer.superuser, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
            try tools.appendAsServer("""

                # Test server of sticker-catalog's many-machines tests: TCP for the test hosts, no durability.
                listen_addresses = '\(host)'
                unix_socket_directories = '\(folder)'
                port = \(port)
                fsync = off
                synchronous_commit = off
                full_page_writes = off
                shared_buffers = 32MB

                """, to: data + "/postgresql.conf")
            try tools.writeAsServer("local all all trust\nhost all all \(subnet) trust\n", to: data + "/pg_hba.conf")
            try start()
        } catch {
            stop()
            throw error
        }
    }

    /// Starts the (stopped) server and waits until it accepts connections.
    public func start() throws {
        try tools.runAsServer("pg_ctl", ["start", "-w", "-t", "60", "-s", "-D", folder + "/data", "-l", folder + "/server.log"], launcher: launcher)
    }

    /// Stops the server as an administrator would (`-m fast`: sessions are ended, transactions in
    /// progress rolled back), and waits until it is down.
    public func stopFast() throws {
        try tools.runAsServer("pg_ctl", ["stop", "-w", "-t", "60", "-s", "-m", "fast", "-D", folder + "/data"])
    }

    /// Stops the server at once and removes its folder (the end of the test).
    public func stop() {
        _ = try? tools.runAsServer("pg_ctl", ["stop", "-s", "-m", "immediate", "-D", folder + "/data"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The address of `database` as clients on the test hosts type it (TCP).
    public func address(database: String) -> String {
        "postgres://\(TestPostgresServer.superuser)@\(host):\(port)/\(database)?sslmode=disable"
    }

    /// The address of `database` through the server's Unix socket (for the test process itself).
    public func socketAddress(database: String) -> String {
        let encodedFolder = folder.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? folder
        return "postgres://\(TestPostgresServer.superuser)@/\(database)?host=\(encodedFolder)&port=\(port)"
    }

    /// Runs SQL through `psql` on the socket and returns its unaligned, tuples-only output.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try tools.psql(sql, folder: folder, port: port, database: database)
    }

    /// The server's log (for a failure message).
    public var log: String {
        (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
    }
}
