import GRDB

extension CatalogError {
    /// Runs `body` and turns whatever it throws into a `CatalogError` about the catalog at `path`.
    /// Every public method of the module goes through here, so the mapping lives in one place.
    static func catching<T>(path: String, _ body: () throws -> T) throws(CatalogError) -> T {
        do {
            return try body()
        } catch {
            throw CatalogError(error, path: path)
        }
    }

    /// The `CatalogError` for an error thrown while working on the catalog at `path`.
    init(_ error: any Error, path: String) {
        switch error {
        case let error as CatalogError:
            self = error
        case let error as DatabaseError:
            self = CatalogError(error, path: path)
        default:
            self = .database(path: path, message: String(describing: error))
        }
    }

    /// Maps SQLite's primary result code; the message is SQLite's, never the statement's arguments.
    init(_ error: DatabaseError, path: String) {
        let message = error.message ?? error.resultCode.description
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .busy(path: path)
        case .SQLITE_FULL:
            self = .diskFull(path: path)
        case .SQLITE_READONLY:
            self = .readOnly(path: path, reason: message)
        case .SQLITE_NOTADB:
            self = .notACatalog(path: path, reason: "it is not an SQLite database (\(message))")
        case .SQLITE_IOERR, .SQLITE_CANTOPEN:
            self = .io(path: path, reason: message)
        default:
            self = .database(path: path, message: message)
        }
    }
}
