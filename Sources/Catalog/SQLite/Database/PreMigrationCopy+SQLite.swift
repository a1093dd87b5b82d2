import Foundation
import GRDB

extension PreMigrationCopy {
    /// Copies the catalog at `path` to `path.pre-N` when it is in state `.older`; nil for other states
    /// (a new catalog has nothing to keep). A copy that cannot be made stops the upgrade.
    static func makeIfNeeded(_ pool: DatabasePool, path: String, state: SchemaState) throws(CatalogError) -> PreMigrationCopy? {
        guard case .older(let pending) = state else { return nil }
        let applied = CatalogMigrations.identifiers.filter { !pending.contains($0) }
        let last = applied.last ?? "0000"
        let version = String(last.prefix { $0 != "_" })
        let destination = path + ".pre-" + version
        // Another process may migrate the catalog between the state read and the copy: a copy that is not
        // in the state this process saw is dropped (that process kept the copy of the older catalog).
        let copied = try ConsistentCopy.write(from: pool, path: path, to: destination) { copy in
            try copy.read(SchemaState.read) == state
        }
        guard copied else { return nil }
        return PreMigrationCopy(url: URL(fileURLWithPath: destination), fromVersion: version, appliedMigrations: pending)
    }
}
