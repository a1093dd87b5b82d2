import Foundation

// Copying a catalog (`catalog copy`; see ``CatalogCopier``). A back end implements both roles so a catalog
// can be copied to or from it, keeping entry ids. Contract:
// - `storedEntries` reads in one snapshot; floats are 64-bit and come back exactly as written; an
//   entry's palette is by rank; stored text (timestamps, JSON) is returned as stored.
// - `beginCopy` in one transaction: when the catalog is empty (no entry, pack, setting, work item,
//   marker) it writes the `copy_marker` row (source, last_id NULL, completed_at NULL) and returns
//   `.empty`; otherwise it writes nothing and returns the state it found.
// - `writeCopiedEntries` in one transaction: checks that the marker names `source` and is incomplete
//   and that every id is above `last_id` (else `.copyRefused`), inserts every row with its id (the
//   id sequence must then be past the largest id: PostgreSQL `setval(pg_get_serial_sequence(…))`),
//   keeps the colour index current, and sets `last_id` to the largest id.
// - `finishCopy` in one transaction: the same marker check, replaces every pack (items with their
//   positions and emoji) and every setting with `rest`, and sets `completed_at`.

/// A catalog read whole, as stored, for a copy of it (and for the checksums `verify` compares).
public protocol CopySource: CatalogHandle {
    /// Up to `limit` complete entries with ids above `id` (nil: from the first), in id order, from one snapshot.
    func storedEntries(after id: Int64?, limit: Int) async throws(CatalogError) -> [StoredEntry]
    /// Every pack with its items, and every stored setting, from one snapshot.
    func storedRest() async throws(CatalogError) -> StoredCatalogRest
}

/// A catalog being filled by a copy, with the marker that says how far the copy got.
public protocol CopyTarget: CatalogHandle {
    /// What the catalog holds, as a copy into it sees it.
    func copyTargetState() async throws(CatalogError) -> CopyTargetState
    /// Marks an empty catalog as an incomplete copy of `source` and returns `.empty`; otherwise changes
    /// nothing and returns what it holds.
    func beginCopy(from source: String) async throws(CatalogError) -> CopyTargetState
    /// Inserts copied entries with their ids, in one transaction, into an incomplete copy of `source`.
    func writeCopiedEntries(_ entries: [StoredEntry], from source: String) async throws(CatalogError)
    /// Replaces packs and settings with `rest` and marks the copy of `source` complete, in one transaction.
    func finishCopy(_ rest: StoredCatalogRest, from source: String) async throws(CatalogError)
}
