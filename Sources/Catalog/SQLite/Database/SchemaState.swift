import GRDB

/// How a database file's schema history compares with the migrations this binary carries.
enum SchemaState: Equatable {
    /// No tables at all: a new catalog (every migration pending).
    case empty
    /// Every known migration applied, and no other.
    case current
    /// Some known migrations not applied yet (an older catalog).
    case older(pending: [String])
    /// Migrations this binary does not know were applied (a newer catalog).
    case newer(unknown: [String])
    /// Tables, but none of our schema history: another application's database.
    case foreign

    /// Reads the state of `db` without writing anything.
    ///
    /// Safe outside a transaction while other processes migrate the file: the tables are listed in one
    /// statement, and `grdb_migrations` is read only if it was listed (tables are created, never dropped).
    /// `DatabaseMigrator.appliedIdentifiers` is not used because it selects first and checks the table's
    /// existence after, in two snapshots, and can then fail with "no such table".
    static func read(_ db: Database) throws -> SchemaState {
        let tables = Set(try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
            """))
        let otherTables = tables.subtracting(["grdb_migrations"])
        guard tables.contains("grdb_migrations") else { return otherTables.isEmpty ? .empty : .foreign }
        let applied = try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
        if applied.isEmpty { return otherTables.isEmpty ? .empty : .foreign }

        let known = CatalogMigrations.identifiers
        if applied.isDisjoint(with: known) {
            // A GRDB database of some other application: none of its migrations is ours.
            return .foreign
        }
        let unknown = applied.subtracting(known).sorted()
        if !unknown.isEmpty { return .newer(unknown: unknown) }
        let pending = known.filter { !applied.contains($0) }
        return pending.isEmpty ? .current : .older(pending: pending)
    }

    /// Throws when a catalog in this state must not be written by this binary.
    func refuseWriting(path: String) throws(CatalogError) {
        switch self {
        case .empty, .current, .older: return
        case .newer(let unknown): throw .newerCatalog(path: path, unknownMigrations: unknown)
        case .foreign:
            throw .notACatalog(path: path, reason: "it is an SQLite database of another application")
        }
    }

    /// Throws when a catalog in this state cannot be read, unmigrated, by this binary.
    func refuseReading(path: String) throws(CatalogError) {
        switch self {
        case .current: return
        case .empty: throw .needsMigration(path: path, pendingMigrations: CatalogMigrations.identifiers)
        case .older(let pending): throw .needsMigration(path: path, pendingMigrations: pending)
        case .newer, .foreign: try refuseWriting(path: path)
        }
    }
}
