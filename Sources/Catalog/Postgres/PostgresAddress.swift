import Foundation

/// A PostgreSQL catalog's address, `postgres://USER@HOST:PORT/DB?sslmode=…` (or `postgresql://`), read
/// as libpq reads a connection URI: percent-decoding, `host=/folder` for a Unix socket folder, the
/// user's name and the database defaulting as `psql`'s do.
///
/// A password written in the URL is kept for connecting but never shown: ``description`` (the form used
/// in every message) has none, and `==` and `dump` leave it out too.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The role to connect as.
    public var user: String
    /// The server's host name or IP address, for TCP; `nil` when ``socketFolder`` is used.
    public var host: String?
    /// The folder holding the server's Unix socket (`host=/path`, or no host at all).
    public var socketFolder: String?
    /// The TCP port, which also names the Unix socket file (`.s.PGSQL.PORT`).
    public var port: Int
    /// The database holding the catalog.
    public var database: String
    /// How TLS is used (libpq's `sslmode`; default `prefer`).
    public var sslMode: PostgresSSLMode
    /// The certificate authorities to trust for `verify-ca` / `verify-full` (`sslrootcert`); the system's when nil.
    public var sslRootCertificate: String?
    /// How long connecting may take before the server counts as unreachable (`connect_timeout`; default 10 s).
    public var connectTimeout: Duration
    /// How a server that vanished without closing its connections is noticed over TCP.
    public var liveness: PostgresLiveness
    /// A password given in the URL itself. Never printed; compared by nothing.
    var urlPassword: String?

    /// libpq's default socket folder on Debian, used when the URL names no host.
    static let defaultSocketFolder = "/var/run/postgresql"

    /// Whether `text` is a PostgreSQL address (`postgres://` or `postgresql://`) rather than a SQLite file path.
    public static func isPostgresAddress(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Reads an address. `environment` supplies libpq's defaults (`PGUSER`, `USER`). A malformed address
    /// throws ``CatalogError/invalidAddress(address:reason:)`` (exit 64), whose text has no password.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(CatalogError) {
        let parsed = try PostgresAddressParser(text: text).parse()
        let defaultUser = [environment["PGUSER"], environment["USER"], environment["LOGNAME"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? "postgres"
        user = parsed.user ?? defaultUser
        urlPassword = parsed.password
        port = parsed.port ?? 5432
        database = parsed.database ?? user
        sslRootCertificate = parsed.sslRootCertificate
        sslMode = parsed.sslMode ?? .prefer
        // libpq treats 0 as "wait forever"; a catalog command must never hang, so 0 is the default here.
        connectTimeout = .seconds(parsed.connectTimeoutSeconds.flatMap { $0 > 0 ? $0 : nil } ?? 10)
        let standard = PostgresLiveness()
        liveness = PostgresLiveness(
            keepalives: parsed.keepalives ?? standard.keepalives,
            idle: parsed.keepalivesIdleSeconds.map { .seconds($0) } ?? standard.idle,
            interval: parsed.keepalivesIntervalSeconds.map { .seconds($0) } ?? standard.interval,
            count: parsed.keepalivesCount ?? standard.count,
            userTimeout: parsed.tcpUserTimeoutMilliseconds.map { .milliseconds($0) } ?? standard.userTimeout)
        if let host = parsed.host, !host.hasPrefix("/") {
            self.host = host
            socketFolder = nil
        } else {
            host = nil
            socketFolder = parsed.host ?? Self.defaultSocketFolder
        }
    }

    /// The path of the Unix socket file, when the server is reached through one.
    public var socketPath: String? {
        socketFolder.map { ($0 as NSString).appendingPathComponent(".s.PGSQL.\(port)") }
    }

    /// The address as shown to people: no password, ever. `postgres://user@host:port/db`, with the socket
    /// folder as `?host=` when there is one, and a non-default `sslmode`.
    public var description: String {
        var text = "postgres://\(Self.encode(user))@"
        if let host { text += host.contains(":") ? "[\(host)]" : Self.encode(host) }
        text += ":\(port)/\(Self.encode(database))"
        var parameters: [String] = []
        if let socketFolder { parameters.append("host=\(Self.encode(socketFolder))") }
        if sslMode != .prefer && socketFolder == nil { parameters.append("sslmode=\(sslMode.rawValue)") }
        if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
        return text
    }

    /// The server part of ``description``, for messages about reaching it: `host:port` or the socket file.
    public var serverDescription: String {
        if let socketPath { return socketPath }
        return "\(host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "localhost"):\(port)"
    }

    /// The host name `~/.pgpass` lines are matched against: the host, the socket folder, or `localhost`
    /// for libpq's default socket folder (as libpq does).
    var passwordFileHost: String {
        if let host { return host }
        guard let socketFolder else { return "localhost" }
        let standard = [Self.defaultSocketFolder, "/run/postgresql"]
        return standard.contains(socketFolder) ? "localhost" : socketFolder
    }

    public static func == (lhs: PostgresAddress, rhs: PostgresAddress) -> Bool {
        lhs.user == rhs.user && lhs.host == rhs.host && lhs.socketFolder == rhs.socketFolder && lhs.port == rhs.port
            && lhs.database == rhs.database && lhs.sslMode == rhs.sslMode && lhs.sslRootCertificate == rhs.sslRootCertificate
    }

    /// What `dump` and debuggers show: the parts, without the password.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "user": user, "host": host as Any, "socketFolder": socketFolder as Any, "port": port,
            "database": database, "sslMode": sslMode, "hasPassword": urlPassword != nil,
        ])
    }

    private static func encode(_ part: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return part.addingPercentEncoding(withAllowedCharacters: allowed) ?? part
    }
}

/// How a connection to a server that went away without a word (a host powered off, a network cut, a
/// fail-over to another machine) is found dead: TCP keepalive probes on an idle connection, and a limit
/// on how long sent data may go unacknowledged. libpq's parameters of the same names set them; the
/// defaults notice a dead server within about a minute, where the system's would wait for hours
/// (keepalive) or some fifteen minutes (retransmissions), and a worker would hang meanwhile.
public struct PostgresLiveness: Sendable, Equatable {
    /// Keepalive probes on (`keepalives=1`, the default) or off.
    public var keepalives = true
    /// Idle time before the first probe (`keepalives_idle`, seconds).
    public var idle: Duration = .seconds(30)
    /// Time between probes (`keepalives_interval`, seconds).
    public var interval: Duration = .seconds(10)
    /// Unanswered probes before the connection is dropped (`keepalives_count`).
    public var count = 3
    /// How long sent data may stay unacknowledged before the connection is dropped (`tcp_user_timeout`,
    /// milliseconds; 0 leaves the system's retransmission limits).
    public var userTimeout: Duration = .seconds(60)
}

/// libpq's `sslmode` values, as written in the URL.
public enum PostgresSSLMode: String, Sendable, CaseIterable {
    /// Never TLS.
    case disable
    /// TLS if the server wants it. postgres-nio cannot try plain first and TLS second, so this
    /// behaves as `prefer`: either way both kinds of server are reached, unverified.
    case allow
    /// TLS when the server offers it, unverified (libpq's default).
    case prefer
    /// TLS or nothing, unverified.
    case require
    /// TLS, the server's certificate checked against the trusted authorities, not its name.
    case verifyCA = "verify-ca"
    /// TLS, the certificate checked and its name matched to the host.
    case verifyFull = "verify-full"
}
