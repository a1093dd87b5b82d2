import Foundation

extension SQLiteCatalogStore {
    /// Writes a consistent copy of the catalog to `destination` while other processes may write to it
    /// (see `ConsistentCopy`). Refuses an existing destination unless `replacing`, and the catalog itself.
    public nonisolated func backup(to destination: URL, replacing: Bool) throws(CatalogError) {
        let target = destination.standardizedFileURL.path
        if target == path || target == path + "-wal" || target == path + "-shm" {
            throw .io(path: target, reason: "it is the catalog itself; choose another destination")
        }
        switch CatalogFile.kind(at: target) {
        case .directory:
            throw .io(path: target, reason: "it is a folder; name the backup file")
        case .file where !replacing:
            throw .io(path: target, reason: "it exists; use --force to replace it")
        case .inaccessible(let reason):
            throw .io(path: target, reason: reason)
        case .missing, .file:
            break
        }
        let folder = (target as NSString).deletingLastPathComponent
        if case .directory = CatalogFile.kind(at: folder) {} else {
            throw .io(path: target, reason: "its folder \(folder) does not exist")
        }
        try ConsistentCopy.write(from: pool, path: path, to: target)
    }

    /// Stops the statements running on the catalog's connections (a backup under way fails with an
    /// error and removes its temporary file); for signal handlers.
    public nonisolated func interrupt() {
        pool.interrupt()
    }
}
