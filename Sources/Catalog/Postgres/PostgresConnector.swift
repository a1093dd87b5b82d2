import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Opens connections to a PostgreSQL catalog's server: the address's endpoint, TLS per `sslmode`, the
/// password from ``PostgresPassword``, and a deadline on the whole handshake, so that a server that never
/// answers gives ``CatalogError/serverUnreachable(address:server:reason:)`` instead of a hang.
struct PostgresConnector: Sendable {
    let address: PostgresAddress
    /// Kept only here, for the handshake; never printed (this type has no description of its own).
    private let password: String?
    private let tls: PostgresConnection.Configuration.TLS
    /// The authorities the server's certificate is checked against, as told in a TLS failure; nil when
    /// `sslmode` checks no certificate.
    private let trustedAuthorities: String?
    /// Why the password file was ignored (group or world readable, not a plain file), told with a refusal.
    private let passwordWarning: String?

    /// A logger that drops everything: postgres-nio's messages are not for users, and nothing about a
    /// connection (its password least of all) goes to a log.
    static let silentLogger = Logger(label: "sticker-catalog.postgres") { _ in SwiftLogNoOpLogHandler() }

    /// Reads the password (and reports a password file ignored for its permissions through `warn`),
    /// and prepares TLS. Throws ``CatalogError/serverUnreachable(address:server:reason:)`` when the
    /// TLS settings cannot be used (an unreadable `sslrootcert`).
    init(address: PostgresAddress, environment: [String: String], warn: (String) -> Void = { _ in }) throws(CatalogError) {
        self.address = address
        let lookup = PostgresPassword.lookup(for: address, environment: environment)
        if let warning = lookup.warning { warn(warning) }
        passwordWarning = lookup.warning
        password = lookup.password
        (tls, trustedAuthorities) = try Self.tls(for: address, environment: environment)
    }

    /// A new connection, or the ``CatalogError`` that says why not.
    func connect() async throws(CatalogError) -> PostgresConnection {
        let address = self.address
        let (password, tls) = (self.password, self.tls)
        let startup: [(String, String)] = [("application_name", "catalog")]
        do {
            return try await Self.withDeadline(address.connectTimeout) {
                guard let host = address.host else {
                    var configuration = PostgresConnection.Configuration(
                        unixSocketPath: address.socketPath ?? "", username: address.user, password: password, database: address.database)
                    configuration.options.additionalStartupParameters = startup
                    return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Self.silentLogger)
                }
                // The TCP connection is made here, with keepalives and a retransmission limit on its socket.
                let channel = try await PostgresTCPChannel.open(
                    host: host, port: address.port, connectTimeout: address.connectTimeout, liveness: address.liveness)
                var configuration = PostgresConnection.Configuration(
                    establishedChannel: channel, tls: tls, username: address.user, password: password, database: address.database)
                configuration.options.additionalStartupParameters = startup
                // As postgres-nio does for a host it connects to itself: the name for TLS, unless it is an IP address.
                configuration.options.tlsServerName = Self.isIPAddress(host) ? nil : host
                do {
                    // On the channel's own event loop: postgres-nio sets the channel's handlers up from there.
                    return try await PostgresConnection.connect(on: channel.eventLoop, configuration: configuration, id: 1, logger: Self.silentLogger)
                } catch {
                    try? await channel.close()
                    throw error
                }
            }
        } catch {
            if let reason = tlsFailure(error) {
                throw .serverUnreachable(address: address.description, server: address.serverDescription, reason: reason)
            }
            let mapped = PostgresErrorMapping.catalogError(for: error, address: address)
            if case .accessDenied(let name, let user, var reason) = mapped {
                // pg_hba.conf said no to a connection without TLS (its message ends "no encryption"): the
                // server lets this client in over TLS only, which sslmode=disable refused to use.
                if address.sslMode == .disable && reason.hasSuffix("no encryption") {
                    reason += "; the server lets this connection in only over TLS, which sslmode=disable turns off "
                        + "(use sslmode=require or verify-full)"
                }
                if let passwordWarning { reason += " (\(passwordWarning))" }
                throw .accessDenied(address: name, user: user, reason: reason)
            }
            throw mapped
        }
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// Runs `connect`, or throws ``ConnectDeadlineExceeded`` after `deadline`. The TCP connect has its own
    /// timeout; this one also covers a server that accepts the connection and then never answers the
    /// startup or authentication messages.
    ///
    /// The attempt runs in a task of its own that is cancelled, not awaited, at the deadline: a task group
    /// would wait for it on the way out, and postgres-nio's handshake does not always end when cancelled
    /// (a worker whose pool reconnected while its server restarted waited there for good). A connection
    /// that still arrives after the deadline is closed.
    private static func withDeadline(
        _ deadline: Duration, _ connect: @escaping @Sendable () async throws -> PostgresConnection
    ) async throws -> PostgresConnection {
        let race = FirstOutcome<PostgresConnection>()
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let attempt = Task {
                do {
                    let connection = try await connect()
                    if !race.finish(.success(connection)) { try? await connection.close() }
                } catch {
                    race.finish(.failure(error))
                }
            }
            let timer = Task {
                try? await Task.sleep(for: deadline)
                if race.finish(.failure(ConnectDeadlineExceeded(deadline: deadline))) { attempt.cancel() }
            }
            race.onFinish { timer.cancel() }
        }
    }

    /// `base` with libpq's variables for this catalog, for a PostgreSQL program run on it (pg_dump): the
    /// password goes to the child's environment only, never to its arguments (which `ps` shows).
    func toolEnvironment(base: [String: String]) -> [String: String] {
        var environment = base.filter { !$0.key.hasPrefix("PG") }
        environment["PGHOST"] = address.socketFolder ?? address.host
        environment["PGPORT"] = String(address.port)
        environment["PGUSER"] = address.user
        environment["PGDATABASE"] = address.database
        environment["PGSSLMODE"] = address.sslMode.rawValue
        environment["PGCONNECT_TIMEOUT"] = String(address.connectTimeout.components.seconds)
        if let root = address.sslRootCertificate { environment["PGSSLROOTCERT"] = root }
        if let password { environment["PGPASSWORD"] = password }
        return environment
    }

    /// TLS as libpq's `sslmode` asks: none, unverified, verified against the trusted authorities, or that
    /// and the host name; and the authorities trusted, for messages. As libpq does, `require` checks the
    /// certificate as `verify-ca` does when a root certificate file is given or `~/.postgresql/root.crt` exists.
    private static func tls(
        for address: PostgresAddress, environment: [String: String]
    ) throws(CatalogError) -> (PostgresConnection.Configuration.TLS, trustedAuthorities: String?) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        let home = environment["HOME"] ?? NSHomeDirectory()
        let standard = (home as NSString).appendingPathComponent(".postgresql/root.crt")
        let rootFile = address.sslRootCertificate ?? (FileManager.default.fileExists(atPath: standard) ? standard : nil)
        var mode = address.sslMode
        if mode == .require && rootFile != nil { mode = .verifyCA }
        switch mode {
        case .disable: return (.disable, nil)
        case .allow, .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        var trusted: String?
        if mode == .verifyCA || mode == .verifyFull {
            if let rootFile, rootFile != "system" {
                configuration.trustRoots = .file(rootFile)
                trusted = rootFile
            } else {
                trusted = "the system's certificate authorities"
            }
        }
        do {
            let context = try NIOSSLContext(configuration: configuration)
            switch mode {
            case .allow, .prefer: return (.prefer(context), trusted)
            default: return (.require(context), trusted)
            }
        } catch {
            throw .serverUnreachable(
                address: address.description, server: address.serverDescription,
                reason: "TLS cannot be set up (sslmode=\(address.sslMode.rawValue)"
                    + (trusted.map { ", root certificates from \($0)" } ?? "") + "): \(error)")
        }
    }

    /// Why the TLS handshake failed, in words, when it is what failed: the server's certificate not signed by
    /// a trusted authority, or not naming the host. Nil for every other failure.
    private func tlsFailure(_ error: any Error) -> String? {
        guard let error = error as? PSQLError, error.code == .connectionError, let underlying = error.underlying else { return nil }
        let mode = address.sslMode.rawValue
        if let extra = underlying as? NIOSSLExtraError, extra == .failedToValidateHostname {
            let host = address.host ?? "localhost"
            return "the server's certificate is not valid for the host name \(host) (sslmode=\(mode) checks it): "
                + "connect by a name the certificate lists"
        }
        // BoringSSL names the failed check in its error stack, not why the chain failed (an unknown issuer,
        // the dates): the error types have no other way to tell it.
        if underlying is NIOSSLError || underlying is BoringSSLError,
           String(describing: underlying).contains("CERTIFICATE_VERIFY_FAILED") {
            let why = address.sslMode == .require ? " (given a root certificate, as verify-ca)" : ""
            return "the server's certificate is not trusted: it is not signed by an authority trusted here "
                + "(\(trustedAuthorities ?? "none")), or it is outside its dates of validity, and sslmode=\(mode)\(why) "
                + "requires a trusted one: give its authority's certificate as sslrootcert=FILE"
        }
        return nil
    }
}

/// The connection deadline passed before the server finished the handshake.
struct ConnectDeadlineExceeded: Error {
    let deadline: Duration
}
