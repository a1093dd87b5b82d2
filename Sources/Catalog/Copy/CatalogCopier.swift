/// Copies a whole catalog into another one, written once over ``CopySource`` and ``CopyTarget`` for every pair of back
/// ends: entries in id order by batches, each batch one transaction on the target (with the marker that
/// says how far the copy got, so a re-run continues after it), then packs and settings, which complete it.
///
/// Refuses a target with content of its own, an incomplete copy of another catalog, and a finished copy.
/// The source is read batch by batch: entries added to it while the copy runs are copied when their ids
/// come; changes to entries already copied are not (copy a catalog nobody writes, or `verify` both ends).
public struct CatalogCopier: Sendable {
    public let source: any CopySource & EntryStore
    public let target: any CopyTarget
    /// Entries per transaction on the target.
    public var batchSize: Int

    public init(source: any CopySource & EntryStore, target: any CopyTarget, batchSize: Int = 200) {
        self.source = source
        self.target = target
        self.batchSize = max(1, batchSize)
    }

    /// Runs the copy (or continues it), calling `onEvent` as it goes. Stops between batches when the task
    /// is cancelled; what was committed stays, and a re-run continues.
    public func run(onEvent: @Sendable (CopyEvent) -> Void) async throws(CatalogError) -> CopySummary {
        let name = source.displayName
        if name == target.displayName {
            throw .copyRefused(catalog: target.displayName, reason: "it is the catalog being copied")
        }
        var after: Int64?
        switch try await target.beginCopy(from: name) {
        case .empty:
            after = nil
        case .incompleteCopy(let other, let lastID) where other == name:
            after = lastID
        case .incompleteCopy(let other, _):
            throw .copyRefused(catalog: target.displayName, reason: "it is an incomplete copy of another catalog (\(other))")
        case .completeCopy(let other):
            throw .copyRefused(catalog: target.displayName, reason: "it is already a complete copy of \(other)")
        case .notEmpty(let entries, let packs):
            throw .copyRefused(catalog: target.displayName, reason: "it is not empty (\(Counted.entries(entries)), \(Counted(packs, "pack")))")
        }
        let total = try await source.stats().total
        onEvent(.started(source: name, target: target.displayName, entries: total, resumedAfter: after))
        var copied = 0
        while !Task.isCancelled {
            let batch = try await source.storedEntries(after: after, limit: batchSize)
            guard let last = batch.last?.id else { break }
            try await target.writeCopiedEntries(batch, from: name)
            copied += batch.count
            after = last
            onEvent(.batch(copied: copied, lastID: last))
        }
        if Task.isCancelled {
            return CopySummary(copied: copied, lastID: after, complete: false, interrupted: true)
        }
        let rest = try await source.storedRest()
        try await target.finishCopy(rest, from: name)
        onEvent(.finished(copied: copied, packs: rest.packs.count, settings: rest.settings.count))
        return CopySummary(copied: copied, lastID: after, complete: true, interrupted: false)
    }
}
