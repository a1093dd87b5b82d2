import Foundation

/// `catalog copy` and `catalog work` are not written for PostgreSQL yet: each of these refuses with a
/// clear error (exit 69) until they are implemented as ``CatalogStore`` documents them (the copy marker and
/// the `work_item` queue of migration 0004, `FOR UPDATE SKIP LOCKED` claims, `LISTEN/NOTIFY`).
extension PostgresCatalogStore {
    private func notYet(_ what: String) -> CatalogError {
        .unavailable(catalog: displayName, reason: "\(what) is not available on PostgreSQL catalogs in this version; use a SQLite catalog for it")
    }

    public func storedEntries(after id: Int64?, limit: Int) async throws(CatalogError) -> [StoredEntry] { throw notYet("copying a catalog") }
    public func storedRest() async throws(CatalogError) -> StoredCatalogRest { throw notYet("copying a catalog") }
    public func copyTargetState() async throws(CatalogError) -> CopyTargetState { throw notYet("copying a catalog") }
    public func beginCopy(from source: String) async throws(CatalogError) -> CopyTargetState { throw notYet("copying a catalog") }
    public func writeCopiedEntries(_ entries: [StoredEntry], from source: String) async throws(CatalogError) { throw notYet("copying a catalog") }
    public func finishCopy(_ rest: StoredCatalogRest, from source: String) async throws(CatalogError) { throw notYet("copying a catalog") }

    public func enqueue(_ files: [SourceFile]) async throws(CatalogError) -> EnqueueCount { throw notYet("the work queue") }
    public func enqueueStale(_ candidates: [ReprocessCandidate]) async throws(CatalogError) -> Int { throw notYet("the work queue") }
    public func claimWork(limit: Int, holder: String, lease: Duration) async throws(CatalogError) -> [WorkClaim] { throw notYet("the work queue") }
    public func renewLeases(_ claims: [WorkClaim], holder: String, lease: Duration) async throws(CatalogError) -> [Int64] {
        throw notYet("the work queue")
    }
    public func releaseWork(_ claims: [WorkClaim], holder: String) async throws(CatalogError) { throw notYet("the work queue") }
    public func completeWork(_ claim: WorkClaim, holder: String, with result: WorkResult) async throws(CatalogError) -> WorkCommit {
        throw notYet("the work queue")
    }
    public func workStatus() async throws(CatalogError) -> WorkStatus { throw notYet("the work queue") }
    public func waitForWork(timeout: Duration) async throws(CatalogError) { throw notYet("the work queue") }
}
