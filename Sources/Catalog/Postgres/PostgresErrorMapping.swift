import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns what postgres-nio and SwiftNIO throw into ``CatalogError``s a user understands, each naming the
/// server and the database (never a password: messages are built from the address's display form).
enum PostgresErrorMapping {
    /// SQLSTATEs of refused credentials: invalid_password, invalid_authorization_specification.
    static let refusedCredentials: Set<String> = ["28P01", "28000"]
    /// invalid_catalog_name: the database does not exist.
    static let missingDatabase = "3D000"
    /// Classes of a server that is there but cannot serve now: cannot_connect_now (starting up, shutting down),
    /// too_many_connections, admin_shutdown, crash_shutdown.
    static let unavailable: Set<String> = ["57P03", "53300", "57P01", "57P02"]

    static func catalogError(for error: any Error, address: PostgresAddress) -> CatalogError {
        if let error = error as? CatalogError { return error }
        let name = address.description
        let server = address.serverDescription
        if let deadline = error as? ConnectDeadlineExceeded {
            return .serverUnreachable(
                address: name, server: server,
                reason: "no answer within \(deadline.deadline.components.seconds) s (connect_timeout)")
        }
        if error is StatementUnanswered {
            return .serverUnreachable(address: name, server: server, reason: "the connection to the server was lost")
        }
        if let error = error as? PSQLError {
            if let sqlState = error.serverInfo?[.sqlState] {
                let message = error.serverInfo?[.message] ?? "SQLSTATE \(sqlState)"
                if refusedCredentials.contains(sqlState) {
                    return .accessDenied(address: name, user: address.user, reason: message)
                }
                if sqlState == missingDatabase { return .databaseMissing(address: name, database: address.database) }
                // Class 08, connection exceptions: the connection broke (a restart, a fail-over).
                if unavailable.contains(sqlState) || sqlState.hasPrefix("08") {
                    return .serverUnreachable(address: name, server: server, reason: message)
                }
                return .database(path: name, message: "\(message) (SQLSTATE \(sqlState))")
            }
            switch error.code {
            case .authMechanismRequiresPassword:
                return .accessDenied(address: name, user: address.user, reason: "the server asks for a password and none was given")
            case .unsupportedAuthMechanism:
                return .accessDenied(address: name, user: address.user, reason: "the server asks for an authentication method catalog does not support")
            case .saslError:
                return .accessDenied(address: name, user: address.user, reason: "the password exchange (SCRAM) failed")
            case .sslUnsupported:
                return .serverUnreachable(
                    address: name, server: server,
                    reason: "the server does not support TLS, and sslmode=\(address.sslMode.rawValue) requires it")
            case .connectionError, .serverClosedConnection, .uncleanShutdown, .failedToAddSSLHandler,
                 .receivedUnencryptedDataAfterSSLRequest:
                return .serverUnreachable(address: name, server: server, reason: describe(error.underlying) ?? "the connection failed")
            case .clientClosedConnection:
                // A statement sent on a connection that was closing or closed: we close connections only when
                // a store closes, so this one broke under it (the server went away between two statements).
                return .serverUnreachable(
                    address: name, server: server, reason: describe(error.underlying) ?? "the connection to the server was lost")
            default:
                return .database(path: name, message: "PostgreSQL client error \(error.code)")
            }
        }
        if let reason = describe(error) { return .serverUnreachable(address: name, server: server, reason: reason) }
        return .database(path: name, message: String(describing: error))
    }

    /// A short reason for a network-level error: refused, no such host, a TLS failure, a timeout.
    static func describe(_ error: (any Error)?) -> String? {
        guard let error else { return nil }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = error as? NIOConnectionError {
            if let dns = error.dnsAError ?? error.dnsAAAAError { return "the host name cannot be resolved (\(dns))" }
            if let first = error.connectionErrors.first { return describe(first.error) ?? "\(first.error)" }
            return "no address to connect to"
        }
        if let error = error as? ChannelError, case .connectTimeout = error { return "no answer (connect timeout)" }
        if let error = error as? NIOSSLError { return "TLS failed (\(error))" }
        if let error = error as? BoringSSLError { return "TLS failed (\(error))" }
        if error is SocketAddressError { return "the host name cannot be resolved" }
        return nil
    }
}
