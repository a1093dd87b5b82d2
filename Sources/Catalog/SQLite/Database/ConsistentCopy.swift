import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A consistent copy of a catalog, made the way a crash cannot leave half of: `VACUUM INTO` a new
/// temporary file in the destination's folder (one read snapshot, so other processes may write
/// meanwhile), fsync of the copy, rename over the destination, fsync of the folder. A failure removes
/// the temporary file; the destination is then as it was.
enum ConsistentCopy {
    /// Copies the catalog `pool` opens (at `path`, for messages) to `destination`, replacing it, when
    /// `accept` (given the synced copy, before the rename) says so; returns whether it did.
    @discardableResult
    static func write(
        from pool: DatabasePool, path: String, to destination: String,
        accept: (DatabaseQueue) throws -> Bool = { _ in true }
    ) throws(CatalogError) -> Bool {
        let folder = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do throws(CatalogError) {
            try CatalogError.catching(path: path) {
                // VACUUM cannot run inside a transaction; VACUUM INTO reads one snapshot by itself.
                try pool.unsafeRead { db in
                    try db.execute(sql: "VACUUM INTO ?", arguments: [temporary])
                }
            }
            try sync(temporary, destination: destination)
            let accepted = try CatalogError.catching(path: destination) {
                var configuration = Configuration()
                configuration.readonly = true
                let copy = try DatabaseQueue(path: temporary, configuration: configuration)
                defer { try? copy.close() }
                return try accept(copy)
            }
            guard accepted else {
                unlink(temporary)
                return false
            }
            guard rename(temporary, destination) == 0 else {
                throw CatalogError.io(path: destination, reason: "cannot rename the copy into place (\(String(cString: strerror(errno))))")
            }
            try sync(folder, destination: destination)
            return true
        } catch {
            unlink(temporary)
            throw error.naming(destination)
        }
    }

    /// fsync(2) of a file or folder, so a rename is not published before the data it names.
    private static func sync(_ path: String, destination: String) throws(CatalogError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw .io(path: destination, reason: "cannot open \(path) to sync it (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            if errno == ENOSPC { throw .diskFull(path: destination) }
            throw .io(path: destination, reason: "cannot sync \(path) (\(reason))")
        }
    }
}

extension CatalogError {
    /// The error about writing the copy at `destination`: a full disk or a failed write there is not the catalog's.
    fileprivate func naming(_ destination: String) -> CatalogError {
        switch self {
        case .diskFull: .diskFull(path: destination)
        case .io(_, let reason), .readOnly(_, let reason), .cannotCreate(_, let reason):
            .io(path: destination, reason: reason)
        default: self
        }
    }
}
