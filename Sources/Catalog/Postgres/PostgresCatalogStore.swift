import Foundation
import PostgresNIO

/// A catalog in a PostgreSQL database: the same contract as the SQLite catalog (records, order, errors,
/// one transaction per recorded photo), with its own SQL (this folder) and migrations (`Migrations/PostgreSQL`).
///
/// Reads take a pooled connection each, in a read-only repeatable-read transaction where they read
/// several tables, so their parts agree. Writes are one at a time in this process (``PostgresWriteGate``)
/// and, across processes and machines, under a transaction-scoped advisory lock, so that "is this hash
/// catalogued yet?" and the insert that follows are one step, as SQLite's `BEGIN IMMEDIATE` makes them.
public final class PostgresCatalogStore: Sendable {
    /// The catalog's address; its display form (no password) names it in messages.
    public let address: PostgresAddress
    /// How the catalog was opened.
    public let access: CatalogAccess
    let pool: PostgresConnectionPool
    /// Makes new connections; also gives PostgreSQL's programs (pg_dump) their environment.
    let connector: PostgresConnector
    private let gate = PostgresWriteGate()
    /// Wakes idle workers (`LISTEN catalog_work`), on a connection of its own opened at the first wait.
    let workListener: PostgresWorkListener

    /// The advisory lock every write transaction takes ("STICKWRT"): writers on other machines wait
    /// for each other, as SQLite's writers do for the file's lock.
    static let writeLockKey: Int64 = 0x5354_4943_4B57_5254

    /// Opens the catalog (see ``PostgresCatalogDatabase/open(address:access:environment:warn:)`` for the errors).
    public static func open(
        address: PostgresAddress, access: CatalogAccess,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        warn: (String) -> Void = { _ in }
    ) async throws(CatalogError) -> PostgresCatalogStore {
        let database = try await PostgresCatalogDatabase.open(address: address, access: access, environment: environment, warn: warn)
        return PostgresCatalogStore(
            address: address, access: access, connector: database.connector,
            pool: PostgresConnectionPool(connector: database.connector, first: database.connection))
    }

    private init(address: PostgresAddress, access: CatalogAccess, connector: PostgresConnector, pool: PostgresConnectionPool) {
        self.address = address
        self.access = access
        self.connector = connector
        self.pool = pool
        workListener = PostgresWorkListener(connector: connector)
    }

    /// The catalog as messages name it: the address without a password.
    public var displayName: String { address.description }

    /// Closes the store's connections.
    public func close() async {
        await workListener.close()
        await pool.close()
    }

    // MARK: - Running statements

    /// Runs `body` on a pooled connection, outside a transaction (one statement, or statements that need
    /// not agree).
    func read<T>(_ body: (PostgresConnection) async throws -> T) async throws(CatalogError) -> T {
        let connection = try await pool.acquire()
        do {
            let value = try await body(connection)
            await pool.release(connection)
            return value
        } catch {
            await pool.release(connection)
            throw mapped(error)
        }
    }

    /// Runs `body` in a read-only repeatable-read transaction: every statement sees one snapshot.
    func readTransaction<T>(_ body: (PostgresConnection) async throws -> T) async throws(CatalogError) -> T {
        try await read { connection in
            try await connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in try await body(connection) }
        }
    }

    /// Runs `body` in a write transaction, one at a time (in this process and, through the advisory lock,
    /// across processes). A read-only store refuses, as SQLite's does.
    ///
    /// With `lockTakenByBody`, the body's first statement takes the advisory lock itself (one round trip
    /// fewer): it must call `pg_advisory_xact_lock(writeLockKey)` and read nothing the lock guards, since
    /// the lock is held only once that statement has run.
    func write<T>(lockTakenByBody: Bool = false, _ body: (PostgresConnection) async throws -> T) async throws(CatalogError) -> T {
        guard access == .readWrite else {
            throw .readOnly(path: displayName, reason: "the catalog was opened read-only")
        }
        await gate.enter()
        do {
            let value = try await read { connection in
                try await connection.transaction("BEGIN") { connection in
                    if !lockTakenByBody { try await connection.run("SELECT pg_advisory_xact_lock(\(Self.writeLockKey))") }
                    return try await body(connection)
                }
            }
            await gate.leave()
            return value
        } catch {
            await gate.leave()
            throw error
        }
    }

    /// The ``CatalogError`` for a failure of a statement (a ``CatalogError`` thrown by our own code passes through).
    func mapped(_ error: any Error) -> CatalogError {
        PostgresErrorMapping.catalogError(for: error, address: address)
    }
}

extension PostgresConnection {
    /// Runs `body` between `begin` (a BEGIN statement) and COMMIT; ROLLBACK when it throws.
    func transaction<T>(_ begin: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await run(begin)
        do {
            let value = try await body(self)
            try await run("COMMIT")
            return value
        } catch {
            try? await run("ROLLBACK")
            throw error
        }
    }

    /// Runs one statement whose rows (if any) are not needed.
    func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws {
        _ = try await rows(sql, binds)
    }

    /// Runs one statement and returns its rows, each as random-access columns.
    ///
    /// The rows are read in a task of their own (``answer(_:)``), which does not inherit the caller's
    /// cancellation: a statement runs to its end, as a SQLite statement does, and a signalled command
    /// stops between statements. (postgres-nio's row sequence throws CancellationError in a cancelled
    /// task: a worker signalled in the middle of a claim failed with exit 74 instead of giving its claims
    /// back.) A statement the closing connection lost fails as ``StatementUnanswered``.
    func rows(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws -> [PostgresRandomAccessRow] {
        try await answer { connection in
            var rows: [PostgresRandomAccessRow] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: PostgresConnector.silentLogger) {
                rows.append(row.makeRandomAccess())
            }
            return rows
        }
    }

    /// The first row of a statement, if any.
    func row(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws -> PostgresRandomAccessRow? {
        try await rows(sql, binds).first
    }
}

extension PostgresRandomAccessRow {
    /// Column `name` decoded as `T` (an optional type for a nullable column).
    func value<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try self[name].decode(T.self)
    }
}

/// Builds the bindings of a statement: `binds(a, b, c)` for `$1, $2, $3`.
func binds(_ values: (any PostgresDynamicTypeEncodable)?...) -> PostgresBindings {
    var bindings = PostgresBindings()
    for value in values {
        if let value { bindings.append(value) } else { bindings.appendNull() }
    }
    return bindings
}
