import Foundation
import PostgresNIO

/// An open PostgreSQL catalog: a connection that passed the handshake, on a schema that is current
/// (after migrating it, for `.readWrite`) or refused as ``PostgresSchema`` says.
public final class PostgresCatalogDatabase: Sendable {
    /// The catalog's address (its display form has no password).
    public let address: PostgresAddress
    /// Makes further connections (the same endpoint, TLS and password).
    let connector: PostgresConnector
    /// The connection opened and checked by ``open(address:access:environment:warn:)``.
    let connection: PostgresConnection

    private init(address: PostgresAddress, connector: PostgresConnector, connection: PostgresConnection) {
        self.address = address
        self.connector = connector
        self.connection = connection
    }

    /// Connects (with the address's timeout) and prepares the schema for `access`. Every failure is a
    /// ``CatalogError`` naming the server and database: unreachable (69), credentials refused (77), no
    /// such database (74), a newer schema (65), another application's tables (65).
    /// `warn` receives warnings for the user (a password file ignored for its permissions).
    public static func open(
        address: PostgresAddress, access: CatalogAccess,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        warn: (String) -> Void = { _ in }
    ) async throws(CatalogError) -> PostgresCatalogDatabase {
        let connector = try PostgresConnector(address: address, environment: environment, warn: warn)
        let connection = try await connector.connect()
        do {
            try await PostgresSchema.prepare(connection, access: access, address: address)
        } catch {
            try? await connection.close()
            throw error
        }
        return PostgresCatalogDatabase(address: address, connector: connector, connection: connection)
    }

    /// The schema migrations applied, in order (the same identifiers as a SQLite catalog's).
    public func appliedMigrations() async throws(CatalogError) -> [String] {
        do {
            var identifiers: [String] = []
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT identifier FROM \(PostgresSchema.historyTable) ORDER BY identifier"),
                logger: PostgresConnector.silentLogger)
            for try await identifier in rows.decode(String.self) { identifiers.append(identifier) }
            return identifiers
        } catch {
            throw PostgresErrorMapping.catalogError(for: error, address: address)
        }
    }

    /// Closes the connection.
    public func close() async {
        try? await connection.close()
    }
}
