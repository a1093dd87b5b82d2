import Foundation

/// Everything that can go wrong with the catalog (a SQLite file or a PostgreSQL database), with a message that names the file, the
/// problem and what to do (the CLI maps each case to an exit code).
public enum CatalogError: Error, LocalizedError, Sendable, Equatable {
    /// The catalog was migrated by a newer `catalog` (it records migrations this binary does not know).
    /// It was left untouched.
    case newerCatalog(path: String, unknownMigrations: [String])
    /// The catalog's schema is older than this binary's and the catalog was opened read-only,
    /// so it cannot be upgraded now. A command that writes upgrades it.
    case needsMigration(path: String, pendingMigrations: [String])
    /// The file exists but is not a sticker catalog (not SQLite, another application's database, a folder).
    /// It was left untouched.
    case notACatalog(path: String, reason: String)
    /// A read-only open of a catalog file that does not exist.
    case missing(path: String)
    /// A write on a catalog whose file or folder is not writable, or that was opened read-only.
    case readOnly(path: String, reason: String)
    /// The catalog (or its folder) could not be created.
    case cannotCreate(path: String, reason: String)
    /// Another process held the catalog's lock for longer than the busy timeout.
    case busy(path: String)
    /// The disk holding the catalog is full.
    case diskFull(path: String)
    /// The operating system reported an I/O error on the catalog.
    case io(path: String, reason: String)
    /// No entry has this id.
    case entryNotFound(id: Int64)
    /// A `postgres://` catalog address that cannot be read (exit 64, a usage error). The address is shown
    /// without its password.
    case invalidAddress(address: String, reason: String)
    /// The PostgreSQL server could not be reached in time: refused, no such host or socket, a timeout,
    /// TLS that could not be set up (exit 69, service unavailable).
    case serverUnreachable(address: String, server: String, reason: String)
    /// The PostgreSQL server refused the credentials (SQLSTATE 28P01, 28000) or wants a password none
    /// was given for (exit 77, permission denied).
    case accessDenied(address: String, user: String, reason: String)
    /// The PostgreSQL server has no database of the address's name (SQLSTATE 3D000). `catalog` does not
    /// create databases (that needs rights a catalog's role should not have), so this is exit 74,
    /// as a catalog that cannot be created.
    case databaseMissing(address: String, database: String)
    /// The catalog's database cannot be reached, or this binary cannot open that kind of catalog.
    case unavailable(catalog: String, reason: String)
    /// `catalog copy` will not write into this catalog: it holds a catalog of its own, or a copy of another one.
    case copyRefused(catalog: String, reason: String)
    /// Any other SQLite error (a constraint failed, a damaged file, ...): SQLite's message.
    case database(path: String, message: String)


    /// A message a user understands: the file, the problem, what to do.
    public var errorDescription: String? {
        switch self {
        case .newerCatalog(let path, let unknown):
            "The catalog \(path) was updated by a newer version of catalog (unknown schema migrations: "
                + "\(unknown.joined(separator: ", "))). Upgrade catalog to use it; the file was left untouched."
        case .needsMigration(let path, let pending):
            "The catalog \(path) has an older schema (pending migrations: \(pending.joined(separator: ", "))) "
                + "and was opened read-only. Run a command that writes to it (such as `catalog import`) once to "
                + "upgrade it, then retry."
        case .notACatalog(let path, let reason):
            "\(path) is not a sticker catalog: \(reason). The file was left untouched; "
                + "choose another file with --catalog or CATALOG_PATH."
        case .missing(let path):
            "There is no catalog at \(path). Import photos first (`catalog import PATH`) to create it, "
                + "or choose another catalog with --catalog or CATALOG_PATH."
        case .readOnly(let path, let reason):
            "The catalog \(path) cannot be written: \(reason). Check the permissions of the file and its folder, "
                + "or choose another catalog with --catalog or CATALOG_PATH."
        case .cannotCreate(let path, let reason):
            "The catalog \(path) cannot be created: \(reason). Check that its folder can be created and written, "
                + "or choose another catalog with --catalog or CATALOG_PATH."
        case .busy(let path):
            "The catalog \(path) is busy (locked by another process); retry later."
        case .diskFull(let path):
            "The disk holding the catalog \(path) is full; free some space and retry."
        case .io(let path, let reason):
            "I/O error on the catalog \(path): \(reason). Check the disk and the file's permissions, then retry."
        case .entryNotFound(let id):
            "There is no entry with id \(id) in the catalog; `catalog list` shows the ids."
        case .invalidAddress(let address, let reason):
            "The catalog address \(address) is not a valid PostgreSQL URL: \(reason). "
                + "Write it as postgres://USER@HOST:PORT/DATABASE (a Unix socket folder as ?host=/path)."
        case .serverUnreachable(let address, let server, let reason):
            "The PostgreSQL server \(server) of the catalog \(address) cannot be reached: \(reason). "
                + "Check that the server runs and the address is right, then retry."
        case .accessDenied(let address, let user, let reason):
            "The PostgreSQL server refused the user \(user) for the catalog \(address): \(reason). "
                + (reason.contains("pg_hba.conf")
                    // Refused by the server's access rules, before any password was asked for.
                    ? "The server's pg_hba.conf says who may connect, from where and how; ask its administrator if this should work."
                    : "Give the password in PGPASSWORD or ~/.pgpass (mode 0600), as for psql.")
        case .databaseMissing(let address, let database):
            "The PostgreSQL server of the catalog \(address) has no database \(database). "
                + "Create it first (createdb \(database), by a role allowed to), then retry."
        case .unavailable(let catalog, let reason):
            "The catalog \(catalog) cannot be opened: \(reason)."
        case .copyRefused(let catalog, let reason):
            "Will not copy into \(catalog): \(reason). Copy into a new catalog (a file that does not exist, or an empty database); "
                + "nothing was written."
        case .database(let path, let message):
            "Database error on the catalog \(path): \(message). `catalog verify` checks the catalog's integrity."
        }
    }
}
