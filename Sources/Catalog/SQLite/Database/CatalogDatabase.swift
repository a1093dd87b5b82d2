import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens the catalog file as a GRDB `DatabasePool`, refusing — before anything is written — files
/// that are not catalogs, catalogs from a newer binary, and catalogs that cannot be written.
enum CatalogDatabase {
    /// The connection settings of every catalog connection: WAL (`DatabasePool` switches a writable
    /// database to WAL itself), a busy timeout instead of GRDB's immediate `SQLITE_BUSY`, foreign keys on.
    /// Pool writes run in `BEGIN IMMEDIATE` transactions: `Database.beginTransaction(nil)` picks IMMEDIATE
    /// for a writable connection, so the write lock is taken up front, under the busy timeout, rather than
    /// on a read-to-write upgrade that fails with `SQLITE_BUSY` whatever the timeout.
    static func configuration(readonly: Bool, busyTimeout: Duration) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.foreignKeysEnabled = true
        configuration.busyMode = BusyWait.mode(timeout: busyTimeout)
        configuration.journalMode = .wal
        configuration.label = "sticker-catalog"
        // Colour search's best-first R*Tree query (`palette_score`), on every connection.
        configuration.prepareDatabase { db in try PaletteScoreQuery.register(db) }
        // The near-duplicate lookup's distance, counted inside its indexes.
        configuration.prepareDatabase { db in db.add(function: HammingFunction.make()) }
        // Reads (every connection that only reads: pool readers and read-only opens) map the file instead
        // of copying each page in with pread: a colour search touches thousands of index and palette pages,
        // and half its time went to those copies. Writes still go through the file (and its journal).
        configuration.prepareDatabase { db in
            if db.configuration.readonly { try db.execute(sql: "PRAGMA mmap_size = 2147418112") }
        }
        if let pages = TestHooks.maxPageCount {
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            }
        }
        return configuration
    }

    /// Opens the catalog at `path`; see `SQLiteCatalogStore.init(url:access:busyTimeout:)` for the rules.
    /// Also returns the copy kept of an existing catalog before migrations changed it, if any.
    static func open(path: String, access: CatalogAccess, busyTimeout: Duration) throws(CatalogError) -> (DatabasePool, PreMigrationCopy?) {
        switch access {
        case .readWrite: try openForWriting(path: path, busyTimeout: busyTimeout)
        case .readOnly: (try openForReading(path: path, busyTimeout: busyTimeout), nil)
        }
    }

    // MARK: - Read-write

    private static func openForWriting(path: String, busyTimeout: Duration) throws(CatalogError) -> (DatabasePool, PreMigrationCopy?) {
        let folder = (path as NSString).deletingLastPathComponent
        switch CatalogFile.kind(at: path) {
        case .directory:
            throw .notACatalog(path: path, reason: "it is a folder")
        case .inaccessible(let reason):
            throw .io(path: path, reason: "cannot look at the file (\(reason))")
        case .missing:
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .cannotCreate(path: path, reason: "its folder \(folder) cannot be created (\(FileKind.plainReason(of: error)))")
            }
            try CatalogFile.requireWritableFolder(folder, of: path)
        case .file(let size):
            if let reason = CatalogFile.accessProblem(path, mode: R_OK | W_OK) {
                throw .readOnly(path: path, reason: "the file is not writable (\(reason))")
            }
            try CatalogFile.requireWritableFolder(folder, of: path)
            if size > 0 {
                // Opening a writable pool writes (it switches to WAL and makes sure a WAL file exists),
                // so a file we must refuse is inspected through a read-only connection first.
                try CatalogFile.requireSQLiteHeader(path)
                // nil: a writer killed mid-transaction left a hot journal only a writer can roll back; the
                // writable pool below does that, and `migrate` inspects the recovered file before any write of ours.
                try inspect(path: path, busyTimeout: busyTimeout)?.refuseWriting(path: path)
            }
        }
        let pool = try CatalogError.catching(path: path) {
            try DatabasePool(path: path, configuration: configuration(readonly: false, busyTimeout: busyTimeout))
        }
        let copy = try migrate(pool, path: path)
        return (pool, copy)
    }

    /// Reads the schema state through a short-lived read-only connection; nil when the file needs a
    /// recovery that a read-only connection cannot do (SQLITE_READONLY_ROLLBACK / _RECOVERY: a process
    /// was killed inside a write, e.g. while a new catalog switched to WAL).
    private static func inspect(path: String, busyTimeout: Duration) throws(CatalogError) -> SchemaState? {
        try CatalogError.catching(path: path) {
            do {
                let queue = try DatabaseQueue(path: path, configuration: configuration(readonly: true, busyTimeout: busyTimeout))
                defer { try? queue.close() }
                return try queue.read(SchemaState.read)
            } catch let error as DatabaseError
                where error.extendedResultCode == .SQLITE_READONLY_ROLLBACK || error.extendedResultCode == .SQLITE_READONLY_RECOVERY {
                return nil
            }
        }
    }

    /// Applies pending migrations, checking again around them: another process (perhaps a newer binary)
    /// may have migrated the file since it was inspected. An existing catalog is copied first (`PreMigrationCopy`).
    private static func migrate(_ pool: DatabasePool, path: String) throws(CatalogError) -> PreMigrationCopy? {
        let before = try CatalogError.catching(path: path) { try pool.read(SchemaState.read) }
        try before.refuseWriting(path: path)
        let copy = try PreMigrationCopy.makeIfNeeded(pool, path: path, state: before)
        try CatalogError.catching(path: path) {
            let migrator = CatalogMigrations.migrator
            do {
                try migrator.migrate(pool)
            } catch {
                // GRDB reads the applied migrations outside each migration's transaction, so two processes
                // creating the same catalog at once may both try to apply a migration: the second one fails
                // (the table exists) and rolls back. The catalog is then fine, migrated by the other process.
                let state = try pool.read(SchemaState.read)
                try state.refuseWriting(path: path)
                guard state == .current else { throw error }
            }
            try pool.read(SchemaState.read).refuseWriting(path: path)
        }
        return copy
    }

    // MARK: - Read-only

    private static func openForReading(path: String, busyTimeout: Duration) throws(CatalogError) -> DatabasePool {
        switch CatalogFile.kind(at: path) {
        case .missing:
            throw .missing(path: path)
        case .directory:
            throw .notACatalog(path: path, reason: "it is a folder")
        case .inaccessible(let reason):
            throw .io(path: path, reason: "cannot look at the file (\(reason))")
        case .file(let size):
            if let reason = CatalogFile.accessProblem(path, mode: R_OK) {
                throw .io(path: path, reason: "the file is not readable (\(reason))")
            }
            if size == 0 {
                throw .notACatalog(path: path, reason: "it is an empty file (0 bytes): nothing was ever written to it; `catalog import` makes it a catalog")
            }
            try CatalogFile.requireSQLiteHeader(path)
        }
        let configuration = configuration(readonly: true, busyTimeout: busyTimeout)
        let pool = try CatalogError.catching(path: path) {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError
                where (error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN)
                && !FileManager.default.fileExists(atPath: path + "-shm")
            {
                // A WAL reader needs the -shm file beside the catalog, and SQLite cannot create it in a
                // read-only folder (SQLITE_READONLY_DIRECTORY). Then no process can be writing the catalog
                // either (a writer needs that file too), so the file is safely opened as immutable.
                // This needs SQLite URI filenames, enabled in Debian's and Apple's libsqlite3.
                return try DatabasePool(path: CatalogFile.immutableURI(path), configuration: configuration)
            }
        }
        try CatalogError.catching(path: path) {
            try pool.read(SchemaState.read).refuseReading(path: path)
        }
        return pool
    }
}

extension Duration {
    /// The duration in seconds, as GRDB's busy timeout wants it.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
