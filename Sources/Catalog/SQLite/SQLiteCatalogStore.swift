import Foundation
import GRDB

/// The SQLite back end of ``CatalogStore``: the single owner of writes (one transaction per entry, on the actor) and a source of
/// concurrent reads (nonisolated, on the `DatabasePool`'s reader connections, never queued behind writes).
///
/// Writes are synchronous on the actor: a write that waits for another process's lock blocks one thread
/// for up to the busy timeout, and is not cancelled with its task, so a finished entry still commits
/// when an import is interrupted.
public actor SQLiteCatalogStore: CatalogStore {
    /// The catalog file.
    public nonisolated let url: URL
    /// How the catalog was opened.
    public nonisolated let access: CatalogAccess
    /// The catalog file's path, as messages name it.
    nonisolated let path: String
    /// The catalog file's path.
    public nonisolated var displayName: String { path }
    /// The connections; never handed out.
    let pool: DatabasePool
    /// The copy kept of the catalog before this open upgraded its schema; nil when nothing was migrated
    /// (or the catalog was new).
    public nonisolated let preMigrationCopy: PreMigrationCopy?

    /// Opens the catalog at `url`.
    ///
    /// - `readWrite`: creates the folder and the file when missing, switches to WAL and applies pending
    ///   migrations. Refuses, without writing anything, a folder or a file that is not a catalog
    ///   (`.notACatalog`), a catalog migrated by a newer binary (`.newerCatalog`), and a file or folder
    ///   that is not writable (`.readOnly`, checked with access(2) up front). An existing catalog with
    ///   pending migrations is first copied beside itself (`preMigrationCopy`); no copy, no migration.
    /// - `readOnly`: never creates or changes anything. The file must exist (`.missing`), be a catalog,
    ///   and have exactly this binary's migrations: a newer one is refused (`.newerCatalog`) and so is an
    ///   older one (`.needsMigration`: a command that writes upgrades it first; reading an older schema
    ///   with newer queries is not attempted). A catalog in a read-only folder opens (as immutable).
    ///
    /// `busyTimeout` is how long a write waits for another process's lock before `.busy`.
    public init(url: URL, access: CatalogAccess, busyTimeout: Duration = .seconds(10)) throws(CatalogError) {
        let path = url.standardizedFileURL.path
        self.url = url
        self.access = access
        self.path = path
        (self.pool, self.preMigrationCopy) = try CatalogDatabase.open(path: path, access: access, busyTimeout: busyTimeout)
    }

    /// Runs `updates` in one IMMEDIATE transaction of the writer connection, errors mapped. Before it
    /// commits, the bands of `palette_pack` that the transaction changed are packed again (``PalettePack``).
    func write<T>(_ updates: (Database) throws -> T) throws(CatalogError) -> T {
        guard access == .readWrite else {
            throw .readOnly(path: path, reason: "it was opened read-only")
        }
        return try CatalogError.catching(path: path) {
            try pool.write { db in
                let value = try updates(db)
                try PalettePack.flush(db)
                return value
            }
        }
    }

    /// Runs `value` on a reader connection, concurrently with writes and other reads, errors mapped.
    nonisolated func read<T>(_ value: (Database) throws -> T) throws(CatalogError) -> T {
        try CatalogError.catching(path: path) {
            try pool.read(value)
        }
    }
}
