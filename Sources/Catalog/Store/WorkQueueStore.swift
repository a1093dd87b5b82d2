import Foundation

/// The shared work queue of `catalog import --enqueue` and `catalog work` (see ``Worker``): files and stale
/// entries waiting, claimed under a lease with a fencing token, and committed with the check of that token.
public protocol WorkQueueStore: CatalogHandle {
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
}

extension WorkQueueStore {
    /// The commit, then a claim of its own (SQLite: each is a short transaction on the local file).
    public func completeWork(
        _ claim: WorkClaim, holder: String, with result: WorkResult, claimingNext limit: Int, lease: Duration
    ) async throws(CatalogError) -> (WorkCommit, [WorkClaim]) {
        let commit = try await completeWork(claim, holder: holder, with: result)
        guard limit > 0, !Task.isCancelled else { return (commit, []) }
        return (commit, try await claimWork(limit: limit, holder: holder, lease: lease))
    }
}
