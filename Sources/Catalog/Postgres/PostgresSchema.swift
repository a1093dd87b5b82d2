import Logging
import PostgresNIO

/// Brings a PostgreSQL catalog's schema to this binary's version, or refuses it, with the same rules as
/// SQLite's catalogs: a newer schema (migrations this binary does not know) is never touched; another
/// application's database is not a catalog; a read-only open never creates or upgrades anything.
///
/// Pending migrations run in one transaction (PostgreSQL's DDL is transactional, so a failure leaves
/// nothing half-made) under a transaction-scoped advisory lock, so that two machines opening a new
/// catalog at once do not both migrate it: the second waits, then finds it current.
enum PostgresSchema {
    /// The schema history table, as GRDB's `grdb_migrations` is SQLite's.
    static let historyTable = "schema_migrations"
    /// The advisory lock key taken while migrating ("STICKERS" in ASCII); any 64-bit constant of our own.
    static let migrationLockKey: Int64 = 0x5354_4943_4B45_5253

    /// How a database's schema history compares with the migrations this binary carries.
    enum State: Equatable {
        case empty
        case current
        case older(pending: [String])
        case newer(unknown: [String])
        case foreign
    }

    /// Reads the state of the database behind `connection` without writing anything.
    static func state(_ connection: PostgresConnection) async throws -> State {
        let logger = PostgresConnector.silentLogger
        var tables: Set<String> = []
        let rows = try await connection.query("""
            SELECT table_name::text FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
            """, logger: logger)
        for try await name in rows.decode(String.self) { tables.insert(name) }
        let otherTables = tables.subtracting([historyTable])
        guard tables.contains(historyTable) else { return otherTables.isEmpty ? .empty : .foreign }
        var applied: Set<String> = []
        for try await identifier in try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT identifier FROM \(historyTable)"), logger: logger
        ).decode(String.self) {
            applied.insert(identifier)
        }
        if applied.isEmpty { return otherTables.isEmpty ? .empty : .foreign }
        let known = PostgresMigrations.identifiers
        if applied.isDisjoint(with: known) { return .foreign }
        let unknown = applied.subtracting(known).sorted()
        if !unknown.isEmpty { return .newer(unknown: unknown) }
        let pending = known.filter { !applied.contains($0) }
        return pending.isEmpty ? .current : .older(pending: pending)
    }

    /// Makes the schema current (`.readWrite`) or checks that it is (`.readOnly`).
    static func prepare(_ connection: PostgresConnection, access: CatalogAccess, address: PostgresAddress) async throws(CatalogError) {
        let name = address.description
        do {
            switch access {
            case .readOnly:
                switch try await state(connection) {
                case .current: return
                case .empty: throw CatalogError.missing(path: name)
                case .older(let pending): throw CatalogError.needsMigration(path: name, pendingMigrations: pending)
                case .newer(let unknown): throw CatalogError.newerCatalog(path: name, unknownMigrations: unknown)
                case .foreign: throw foreign(address)
                }
            case .readWrite:
                try await migrate(connection, address: address)
            }
        } catch {
            throw PostgresErrorMapping.catalogError(for: error, address: address)
        }
    }

    private static func migrate(_ connection: PostgresConnection, address: PostgresAddress) async throws {
        let logger = PostgresConnector.silentLogger
        // Fast path, without a transaction or the lock: most opens find the schema current.
        switch try await state(connection) {
        case .current: return
        case .newer(let unknown): throw CatalogError.newerCatalog(path: address.description, unknownMigrations: unknown)
        case .foreign: throw foreign(address)
        case .empty, .older: break
        }
        try await connection.query("BEGIN", logger: logger)
        do {
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLockKey))", logger: logger)
            // Read again under the lock: another process may have migrated meanwhile.
            let pending: [String]
            switch try await state(connection) {
            case .current: pending = []
            case .empty: pending = PostgresMigrations.identifiers
            case .older(let missing): pending = missing
            case .newer(let unknown): throw CatalogError.newerCatalog(path: address.description, unknownMigrations: unknown)
            case .foreign: throw foreign(address)
            }
            if !pending.isEmpty {
                try await connection.query(PostgresQuery(unsafeSQL: """
                    CREATE TABLE IF NOT EXISTS \(historyTable) (
                        identifier TEXT PRIMARY KEY,
                        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                    )
                    """), logger: logger)
            }
            for migration in PostgresMigrations.all where pending.contains(migration.identifier) {
                for statement in PostgresMigrations.statements(in: migration.sql) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    PostgresQuery(unsafeSQL: "INSERT INTO \(historyTable) (identifier) VALUES ($1)",
                                  binds: bindings(migration.identifier)),
                    logger: logger)
            }
            try await connection.query("COMMIT", logger: logger)
        } catch {
            // Not on a closed connection: postgres-nio may neither send nor fail it (see `answer(_:)`).
            if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
            throw error
        }
    }

    private static func bindings(_ text: String) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(text)
        return bindings
    }

    private static func foreign(_ address: PostgresAddress) -> CatalogError {
        .notACatalog(
            path: address.description,
            reason: "the database \(address.database) holds tables of another application")
    }
}
