import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system checks made before SQLite opens the catalog, so that refusals happen up front,
/// with a clear reason, and without touching the file.
enum CatalogFile {
    /// What is at a path.
    enum Kind: Equatable {
        case missing
        case directory
        case file(size: Int64)
        /// stat(2) failed for another reason than a missing file (the system's message).
        case inaccessible(String)
    }

    /// What is at `path` (following symbolic links), as stat(2) sees it.
    static func kind(at path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT ? .missing : .inaccessible(String(cString: strerror(errno)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .directory }
        // A FIFO, socket or device would block or mislead SQLite: never opened as a catalog.
        if case .special(let what) = FileKind.of(mode: info.st_mode, size: 0) { return .inaccessible("it is \(what), not a regular file") }
        return .file(size: Int64(info.st_size))
    }

    /// Size in bytes of the file at `path`, 0 when there is none.
    static func size(at path: String) -> Int64 {
        if case .file(let size) = kind(at: path) { return size }
        return 0
    }

    /// Why access(2) refuses `mode` on `path` (the system's message), or nil when it allows it.
    /// access(2) checks the real user, as a command-line tool should; root passes every check
    /// except on a read-only file system.
    static func accessProblem(_ path: String, mode: Int32) -> String? {
        guard access(path, mode) != 0 else { return nil }
        return String(cString: strerror(errno))
    }

    /// Throws `.readOnly` unless SQLite can create the catalog's `-wal` and `-shm` files in `folder`.
    static func requireWritableFolder(_ folder: String, of path: String) throws(CatalogError) {
        if let reason = accessProblem(folder, mode: W_OK | X_OK) {
            throw .readOnly(
                path: path,
                reason: "its folder \(folder) is not writable (\(reason)); SQLite needs to create the catalog's "
                    + "-wal and -shm files there"
            )
        }
    }

    /// Throws `.notACatalog` unless the file starts with SQLite's magic string. Reads 16 bytes, writes nothing.
    static func requireSQLiteHeader(_ path: String) throws(CatalogError) {
        let magic = Array("SQLite format 3\0".utf8)
        let header: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            header = Array(try handle.read(upToCount: magic.count) ?? Data())
        } catch {
            throw .io(path: path, reason: "cannot read it (\(FileKind.plainReason(of: error)))")
        }
        guard header == magic else {
            throw .notACatalog(path: path, reason: "it is not an SQLite database")
        }
    }

    /// An SQLite URI filename opening `path` as immutable: no locks, no -shm, no change detection.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:" + escaped + "?immutable=1"
    }
}
