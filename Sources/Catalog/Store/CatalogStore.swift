import Foundation
import Processing

/// The catalog as the workflows, the CLI and the server see it, whatever database holds it (a SQLite
/// file, a PostgreSQL server). Every back end keeps the same contract: the same records in the same
/// order, the same errors, one transaction per recorded photo. Open one with ``CatalogStores/open(_:access:options:)``.
///
/// Writes are serialised by the store (one writer at a time within a process); reads may run concurrently
/// with writes and with each other. A write that has started is not cancelled with its task, so a finished
/// entry still commits when an import is interrupted.
public protocol CatalogStore: Sendable {
    // MARK: What is open

    /// The catalog as messages name it: a file's path, or a server's URL without its password.
    var displayName: String { get }
    /// How the catalog was opened.
    var access: CatalogAccess { get }
    /// The copy kept of the catalog before this open upgraded its schema; nil when nothing was migrated,
    /// the catalog was new, or the back end keeps no such copy.
    var preMigrationCopy: PreMigrationCopy? { get }

    // MARK: Recording imports (one transaction per call)

    /// Records a processed photo (entry, EXIF, sticker, palette), or updates the entry with these bytes.
    func recordProcessed(_ photo: ProcessedPhoto, sha256: String, source: SourceFile) async throws(CatalogError) -> ImportOutcome
    /// Records many processed photos in one transaction, each as ``recordProcessed(_:sha256:source:)`` would.
    func recordProcessed(batch entries: [ProcessedEntry]) async throws(CatalogError) -> [ImportOutcome]
    /// Records a photo that could not be processed (code and message), keeping what was learnt of it.
    func recordFailure(
        sha256: String?, source: SourceFile, format: ImageFormat?, facts: PhotoFacts?, code: String, message: String
    ) async throws(CatalogError) -> ImportOutcome
    /// Notes that `source` holds the same bytes as entry `id`.
    func noteDuplicate(id: Int64, source: SourceFile) async throws(CatalogError) -> ImportOutcome

    // MARK: Identity reads for import

    /// The entry made from these bytes, if any.
    func existingEntry(sha256: String) async throws(CatalogError) -> ExistingEntry?
    /// The entry (with a hash) recorded at `path` whose bytes are not `sha256`; nil when none.
    func entryClaiming(path: String, otherThan sha256: String) async throws(CatalogError) -> PathClaim?
    /// The failure recorded for entry `id`, if it is a failed entry.
    func failure(id: Int64) async throws(CatalogError) -> (code: String, message: String)?

    // MARK: Reprocessing (each call one transaction, checked against the hash the candidate was read with)
    //
    // `replace` and `replaceWithFailure` also check the entry's cut-out guidance when `expectedGuidance` is given
    // (the guidance the new content was made with): a `catalog recut` that changed it meanwhile is not overwritten
    // by a cut-out made with the old one (`.changedMeanwhile`). `replace` stores `guidance` with the new content
    // when given (`.none` clears it); nil keeps the stored guidance.

    /// Entries whose sticker is out of date for these settings and versions (every entry when `all`).
    func reprocessCandidates(
        settings: StickerSettings, all: Bool, pipelineVersion: Int, decoderVersion: Int
    ) async throws(CatalogError) -> [ReprocessCandidate]
    /// Replaces entry `id`'s results, unless its hash is no longer `expectedSHA256` (or its guidance `expectedGuidance`).
    func replace(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, with photo: ProcessedPhoto, sha256: String,
        source: SourceFile, guidance: CutoutGuidance?
    ) async throws(CatalogError) -> ReprocessOutcome
    /// Replaces entry `id`'s results with a failure, unless its hash is no longer `expectedSHA256` (or its guidance
    /// `expectedGuidance`); the guidance stays.
    func replaceWithFailure(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, sha256: String, source: SourceFile, format: ImageFormat?,
        facts: PhotoFacts?, code: String, message: String
    ) async throws(CatalogError) -> ReprocessOutcome
    /// Updates entry `id`'s source facts (path, size, time) only.
    func refreshSource(id: Int64, expectedSHA256: String?, source: SourceFile) async throws(CatalogError) -> ReprocessOutcome
    /// Entry `id` now holds the same bytes as another entry: resolves the duplicate.
    func resolveDuplicate(id: Int64, expectedSHA256: String?, sha256: String) async throws(CatalogError) -> ReprocessOutcome

    // MARK: Browsing

    /// The entries that `filter` selects, in id order.
    func entries(_ filter: EntryFilter) async throws(CatalogError) -> [EntrySummary]
    /// One entry with everything known about it; nil when there is none.
    func entry(id: Int64) async throws(CatalogError) -> EntryDetail?
    /// Entry `id`'s sticker PNG; nil when it has none.
    func stickerPNG(id: Int64) async throws(CatalogError) -> [UInt8]?
    /// One page of entries, newest (highest id) first, by LIMIT/OFFSET, with the total.
    func entryPage(_ query: EntryPageQuery, settings: StickerSettings) async throws(CatalogError) -> EntryPage
    /// A short string that changes whenever entry `id`'s sticker changes (for HTTP caching); nil when none.
    func stickerVersion(id: Int64) async throws(CatalogError) -> String?
    /// The path entry `id` was last read from; nil when there is no such entry.
    func sourcePath(id: Int64) async throws(CatalogError) -> String?
    /// Counts, sizes and the schema migrations applied.
    func stats() async throws(CatalogError) -> CatalogStats

    // MARK: Colour search

    /// Entries whose palettes are nearest `query`, best first, through the back end's spatial index.
    func search(_ query: ColorQuery) async throws(CatalogError) -> [ColorSearchResult]
    /// The same results as ``search(_:)`` by scanning every palette: the reference the index is tested against.
    func searchByFullScan(_ query: ColorQuery) async throws(CatalogError) -> [ColorSearchResult]

    // MARK: Settings

    /// The catalog's sticker settings (defaults for unset ones).
    func settings() async throws(CatalogError) -> StickerSettings
    /// Stores one setting's value (already validated).
    func store(_ setting: CatalogSetting, value: String) async throws(CatalogError)

    // MARK: Packs

    /// Creates an empty pack.
    func createPack(name: String, title: String?, author: String) async throws(PackError) -> PackSummary
    /// Adds entries to a pack, in the given order, after its items.
    func addToPack(
        _ name: String, ids: [Int64], emoji: String?, createIfMissing: Bool, skipNonStickers: Bool
    ) async throws(PackError) -> PackAddResult
    /// Removes entries from a pack; the number removed.
    func removeFromPack(_ name: String, ids: [Int64]) async throws(PackError) -> Int
    /// Moves one item to `position` (1-based).
    func movePackItem(_ name: String, id: Int64, to position: Int) async throws(PackError)
    /// Deletes a pack (not its entries).
    func deletePack(_ name: String) async throws(PackError)
    /// Renames a pack.
    func renamePack(_ name: String, to newName: String) async throws(PackError) -> PackSummary
    /// Changes a pack's title and author (nil leaves one unchanged).
    func retitlePack(_ name: String, title: String?, author: String?) async throws(PackError) -> PackSummary
    /// Puts a pack's items in exactly this order.
    func reorderPack(_ name: String, ids: [Int64]) async throws(PackError)
    /// Sets one item's emoji.
    func setPackItemEmoji(_ name: String, id: Int64, emoji: String) async throws(PackError)
    /// Every pack, by name.
    func packs() async throws(PackError) -> [PackSummary]
    /// One pack and its items in order.
    func pack(named name: String) async throws(PackError) -> PackDetail
    /// A pack's entries in pack order.
    func entries(inPack name: String) async throws(PackError) -> [EntrySummary]
    /// A pack with its stickers' PNGs, read in one consistent snapshot, for export.
    func packSource(named name: String) async throws(PackError) -> PackSource

    // MARK: Copying a catalog (`catalog copy`; see ``CatalogCopier``)
    //
    // A back end implements these so a catalog can be copied to or from it, keeping entry ids. Contract:
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

    /// Up to `limit` complete entries with ids above `id` (nil: from the first), in id order, from one snapshot.
    func storedEntries(after id: Int64?, limit: Int) async throws(CatalogError) -> [StoredEntry]
    /// Every pack with its items, and every stored setting, from one snapshot.
    func storedRest() async throws(CatalogError) -> StoredCatalogRest
    /// What the catalog holds, as a copy into it sees it.
    func copyTargetState() async throws(CatalogError) -> CopyTargetState
    /// Marks an empty catalog as an incomplete copy of `source` and returns `.empty`; otherwise changes
    /// nothing and returns what it holds.
    func beginCopy(from source: String) async throws(CatalogError) -> CopyTargetState
    /// Inserts copied entries with their ids, in one transaction, into an incomplete copy of `source`.
    func writeCopiedEntries(_ entries: [StoredEntry], from source: String) async throws(CatalogError)
    /// Replaces packs and settings with `rest` and marks the copy of `source` complete, in one transaction.
    func finishCopy(_ rest: StoredCatalogRest, from source: String) async throws(CatalogError)

    // MARK: Shared work (`catalog import --enqueue`, `catalog work`; see ``Worker``)
    //
    // The queue is the `work_item` table (migration 0004 on both back ends). Contract:
    // - `enqueue`, one transaction per call: a file already pending or claimed, or whose path an entry
    //   has with the same size and modification time, is left alone (`unchanged`); a done or failed row
    //   whose file changed goes back to pending; any other file is inserted as pending.
    // - `enqueueStale`, one transaction: a 'reprocess' row per entry (kind 'reprocess', entry_id, path,
    //   size and time 0) unless one is pending or claimed; a done or failed one goes back to pending.
    // - `claimWork`: takes up to `limit` rows, oldest first, that are pending or claimed with a lease that
    //   ran out, and in the same transaction sets holder, `lease_until = now + lease` and `fence = fence + 1`.
    //   SQLite: one IMMEDIATE transaction (one writer at a time). PostgreSQL: `SELECT id … WHERE … ORDER BY
    //   id LIMIT n FOR UPDATE SKIP LOCKED` then the UPDATE, in one transaction, so concurrent workers never
    //   wait for each other nor take the same row.
    // - `renewLeases`: pushes `lease_until` of the rows still held with these fences; returns the ids lost.
    // - `releaseWork`: rows still held with these fences go back to pending (holder and lease cleared).
    //   It is called by a worker that was interrupted (its task cancelled): it must not give up because
    //   of that cancellation, nor must `completeWork` for the files that finished.
    // - `completeWork`, one transaction: when the row is claimed by `holder` with the claim's fence, records
    //   the result exactly as the matching import method would and marks the row done (failed for a
    //   failure or an unreadable file, with its message); otherwise writes nothing and returns `.fenced`.
    //   PostgreSQL: `SELECT … FOR UPDATE` of the row first, so a concurrent claim waits for the commit. A row
    //   already done or failed with the claim's fence was finished by this claim (a retry after a broken
    //   connection whose COMMIT had landed): `.committedEarlier`, nothing written.
    // - `waitForWork`: returns when the queue may have changed, or after `timeout`. SQLite polls (the file
    //   has no notifications); PostgreSQL `LISTEN catalog_work` and `NOTIFY catalog_work` from `enqueue`,
    //   `releaseWork` and `completeWork`, so idle `--follow` workers wake at once without polling.

    /// Records files as pending work, without reading them.
    func enqueue(_ files: [SourceFile]) async throws(CatalogError) -> EnqueueCount
    /// Records stale entries as pending work (after the files: claims take rows in id order); the number added.
    func enqueueStale(_ candidates: [ReprocessCandidate]) async throws(CatalogError) -> Int
    /// Claims up to `limit` files for `holder` ("host:pid") for `lease`.
    func claimWork(limit: Int, holder: String, lease: Duration) async throws(CatalogError) -> [WorkClaim]
    /// Renews the leases of `claims` still held by `holder`; returns the ids of those no longer held.
    func renewLeases(_ claims: [WorkClaim], holder: String, lease: Duration) async throws(CatalogError) -> [Int64]
    /// Gives `claims` still held by `holder` back to the queue.
    func releaseWork(_ claims: [WorkClaim], holder: String) async throws(CatalogError)
    /// Commits a claimed file's result with the check of its fencing token, in one transaction.
    func completeWork(_ claim: WorkClaim, holder: String, with result: WorkResult) async throws(CatalogError) -> WorkCommit
    /// ``completeWork(_:holder:with:)``, then claims up to `limit` more files as ``claimWork(limit:holder:lease:)``
    /// does (none when `limit` is 0): in the commit's own transaction where the back end can (PostgreSQL: one
    /// round trip and one wait for the disk fewer a file), else one after the other.
    func completeWork(
        _ claim: WorkClaim, holder: String, with result: WorkResult, claimingNext limit: Int, lease: Duration
    ) async throws(CatalogError) -> (WorkCommit, [WorkClaim])
    /// Counts of the queue by state, and who holds what.
    func workStatus() async throws(CatalogError) -> WorkStatus
    /// Returns when new work may be there, at the latest after `timeout`.
    func waitForWork(timeout: Duration) async throws(CatalogError)

    // MARK: Reliability

    /// Checks the catalog's integrity and consistency; counts and checksums that another back end's copy
    /// of the same catalog reports equally.
    func verify() async throws(CatalogError) -> VerifyReport
    /// Writes a consistent copy of the catalog to the file `destination` while others may write to it.
    /// Refuses an existing destination unless `replacing`. A back end that cannot copy itself to a file
    /// throws a clear error.
    func backup(to destination: URL, replacing: Bool) async throws(CatalogError)
    /// Stops the statements running on the catalog (a backup under way fails and cleans up); for signal
    /// handlers, so synchronous and safe to call from any thread.
    func interrupt()
    /// The bytes each table (and index) takes, by name; for benchmarks.
    func tableSizes() async throws(CatalogError) -> [String: Int64]
}

extension CatalogStore {
    /// The commit, then a claim of its own (SQLite: each is a short transaction on the local file).
    public func completeWork(
        _ claim: WorkClaim, holder: String, with result: WorkResult, claimingNext limit: Int, lease: Duration
    ) async throws(CatalogError) -> (WorkCommit, [WorkClaim]) {
        let commit = try await completeWork(claim, holder: holder, with: result)
        guard limit > 0, !Task.isCancelled else { return (commit, []) }
        return (commit, try await claimWork(limit: limit, holder: holder, lease: lease))
    }

    /// ``recordFailure(sha256:source:format:facts:code:message:)`` with no facts.
    public func recordFailure(
        sha256: String?, source: SourceFile, format: ImageFormat?, code: String, message: String
    ) async throws(CatalogError) -> ImportOutcome {
        try await recordFailure(sha256: sha256, source: source, format: format, facts: nil, code: code, message: message)
    }

    /// Replaces entry `id`'s results, unless its hash is no longer `expectedSHA256`; its guidance is neither checked nor changed.
    public func replace(
        id: Int64, expectedSHA256: String?, with photo: ProcessedPhoto, sha256: String, source: SourceFile
    ) async throws(CatalogError) -> ReprocessOutcome {
        try await replace(
            id: id, expectedSHA256: expectedSHA256, expectedGuidance: nil, with: photo, sha256: sha256, source: source, guidance: nil)
    }

    /// Replaces entry `id`'s results with a failure, unless its hash is no longer `expectedSHA256`; the guidance is not checked.
    public func replaceWithFailure(
        id: Int64, expectedSHA256: String?, sha256: String, source: SourceFile, format: ImageFormat?, facts: PhotoFacts?,
        code: String, message: String
    ) async throws(CatalogError) -> ReprocessOutcome {
        try await replaceWithFailure(
            id: id, expectedSHA256: expectedSHA256, expectedGuidance: nil, sha256: sha256, source: source, format: format, facts: facts,
            code: code, message: message)
    }

    /// ``replaceWithFailure(id:expectedSHA256:sha256:source:format:facts:code:message:)`` with no facts.
    public func replaceWithFailure(
        id: Int64, expectedSHA256: String?, sha256: String, source: SourceFile, format: ImageFormat?, code: String, message: String
    ) async throws(CatalogError) -> ReprocessOutcome {
        try await replaceWithFailure(
            id: id, expectedSHA256: expectedSHA256, sha256: sha256, source: source, format: format, facts: nil, code: code, message: message
        )
    }

    /// Candidates for this binary's pipeline and decoder versions.
    public func reprocessCandidates(settings: StickerSettings, all: Bool) async throws(CatalogError) -> [ReprocessCandidate] {
        try await reprocessCandidates(
            settings: settings, all: all, pipelineVersion: PhotoProcessor.pipelineVersion, decoderVersion: PhotoDecoder.decoderVersion
        )
    }

    /// A pack with no title (its name is shown) and no author.
    public func createPack(name: String, title: String? = nil) async throws(PackError) -> PackSummary {
        try await createPack(name: name, title: title, author: "")
    }

    /// Adds to an existing pack, with no emoji; every entry must be a sticker.
    public func addToPack(_ name: String, ids: [Int64]) async throws(PackError) -> PackAddResult {
        try await addToPack(name, ids: ids, emoji: nil, createIfMissing: false, skipNonStickers: false)
    }

    /// Adds to an existing pack with this emoji; every entry must be a sticker.
    public func addToPack(_ name: String, ids: [Int64], emoji: String?) async throws(PackError) -> PackAddResult {
        try await addToPack(name, ids: ids, emoji: emoji, createIfMissing: false, skipNonStickers: false)
    }

    /// Adds with no emoji, creating the pack when `createIfMissing`.
    public func addToPack(
        _ name: String, ids: [Int64], createIfMissing: Bool, skipNonStickers: Bool = false
    ) async throws(PackError) -> PackAddResult {
        try await addToPack(name, ids: ids, emoji: nil, createIfMissing: createIfMissing, skipNonStickers: skipNonStickers)
    }
}
