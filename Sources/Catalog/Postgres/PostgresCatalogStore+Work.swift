import Foundation
import PostgresNIO
import Processing

/// The shared work queue on PostgreSQL (`work_item`, migration 0004). Queue changes are short transactions
/// of their own, outside the catalog's write lock (``PostgresCatalogStore/writeLockKey``): claims take rows
/// with `FOR UPDATE SKIP LOCKED`, so workers on many machines never wait for each other nor for a commit
/// in progress. Only ``completeWork(_:holder:with:)`` writes entries, under the write lock as every import
/// does. Leases are timed by the server's clock, so the machines' clocks need not agree.
extension PostgresCatalogStore {
    /// Seconds since 1970 on the server's clock, as SQL.
    private static let serverNow = "extract(epoch from clock_timestamp())::float8"

    public func enqueue(_ files: [SourceFile]) async throws(CatalogError) -> EnqueueCount {
        guard !files.isEmpty else { return EnqueueCount() }
        let now = Timestamp.now()
        let added: Int = try await queueTransaction { connection in
            // Already imported unchanged: an entry at that path with the same size and time. One statement
            // for the whole batch, so 100,000 files are a few hundred round trips.
            let row = try await connection.row("""
                WITH input AS (
                    SELECT DISTINCT ON (path) path, file_size, file_mtime
                    FROM unnest($1::text[], $2::bigint[], $3::float8[]) AS t(path, file_size, file_mtime)
                ), fresh AS (
                    SELECT i.* FROM input i WHERE NOT EXISTS (
                        SELECT 1 FROM photo p WHERE p.path = i.path AND p.file_size = i.file_size AND p.file_mtime = i.file_mtime)
                ), changed AS (
                    INSERT INTO work_item (kind, entry_id, path, file_size, file_mtime, state, enqueued_at)
                    SELECT 'import', 0, path, file_size, file_mtime, 'pending', $4 FROM fresh ORDER BY path
                    ON CONFLICT (kind, entry_id, path) DO UPDATE SET
                        state = 'pending', file_size = excluded.file_size, file_mtime = excluded.file_mtime,
                        result_id = NULL, message = NULL, finished_at = NULL, enqueued_at = excluded.enqueued_at
                    WHERE work_item.state IN ('done', 'failed')
                      AND (work_item.file_size != excluded.file_size OR work_item.file_mtime != excluded.file_mtime)
                    RETURNING 1
                )
                SELECT count(*) AS n FROM changed
                """, binds(files.map(\.path), files.map(\.size), files.map(\.modificationTime), now))
            let added: Int = try row?.value("n") ?? 0
            if added > 0 { try await connection.run("NOTIFY \(Self.workChannel)") }
            return added
        }
        return EnqueueCount(added: added, unchanged: files.count - added)
    }

    public func enqueueStale(_ candidates: [ReprocessCandidate]) async throws(CatalogError) -> Int {
        guard !candidates.isEmpty else { return 0 }
        let now = Timestamp.now()
        return try await queueTransaction { connection in
            let row = try await connection.row("""
                WITH changed AS (
                    INSERT INTO work_item (kind, entry_id, path, file_size, file_mtime, state, enqueued_at)
                    SELECT 'reprocess', entry_id, path, 0, 0, 'pending', $3
                    FROM unnest($1::bigint[], $2::text[]) AS t(entry_id, path) ORDER BY entry_id
                    ON CONFLICT (kind, entry_id, path) DO UPDATE SET
                        state = 'pending', result_id = NULL, message = NULL, finished_at = NULL, enqueued_at = excluded.enqueued_at
                    WHERE work_item.state IN ('done', 'failed')
                    RETURNING 1
                )
                SELECT count(*) AS n FROM changed
                """, binds(candidates.map(\.id), candidates.map(\.path), now))
            let added: Int = try row?.value("n") ?? 0
            if added > 0 { try await connection.run("NOTIFY \(Self.workChannel)") }
            return added
        }
    }

    public func claimWork(limit: Int, holder: String, lease: Duration) async throws(CatalogError) -> [WorkClaim] {
        try await queueStatement { connection in
            try await Self.claim(limit: limit, holder: holder, lease: lease, connection)
        }
    }

    /// Claims up to `limit` rows for `holder`: one statement, on its own or inside a commit's transaction.
    private static func claim(limit: Int, holder: String, lease: Duration, _ connection: PostgresConnection) async throws -> [WorkClaim] {
        // Rows another worker is claiming or committing right now are locked: skipped, not waited for.
        let rows = try await connection.rows("""
            WITH picked AS (
                SELECT id FROM work_item
                WHERE state = 'pending' OR (state = 'claimed' AND lease_until < \(serverNow))
                ORDER BY id LIMIT $1
                FOR UPDATE SKIP LOCKED
            )
            UPDATE work_item w SET state = 'claimed', holder = $2, lease_until = \(serverNow) + $3, fence = w.fence + 1
            FROM picked WHERE w.id = picked.id
            RETURNING w.id, w.kind, w.entry_id, w.path, w.file_size, w.file_mtime, w.fence
            """, binds(max(1, limit), holder, lease.timeInterval))
        return try rows.map { row in
            let kind: String = try row.value("kind")
            return WorkClaim(
                id: try row.value("id"),
                source: SourceFile(path: try row.value("path"), size: try row.value("file_size"), modificationTime: try row.value("file_mtime")),
                entryID: kind == "reprocess" ? try row.value("entry_id") : nil, fence: try row.value("fence"))
        }.sorted { $0.id < $1.id }
    }

    public func renewLeases(_ claims: [WorkClaim], holder: String, lease: Duration) async throws(CatalogError) -> [Int64] {
        guard !claims.isEmpty else { return [] }
        let kept = try await queueStatement { connection in
            try await connection.rows("""
                UPDATE work_item w SET lease_until = \(Self.serverNow) + $3
                FROM unnest($1::bigint[], $2::bigint[]) AS c(id, fence)
                WHERE w.id = c.id AND w.fence = c.fence AND w.state = 'claimed' AND w.holder = $4
                RETURNING w.id
                """, binds(claims.map(\.id), claims.map(\.fence), lease.timeInterval, holder)
            ).map { try $0.value("id", as: Int64.self) }
        }
        let held = Set(kept)
        return claims.map(\.id).filter { !held.contains($0) }
    }

    public func releaseWork(_ claims: [WorkClaim], holder: String) async throws(CatalogError) {
        guard !claims.isEmpty else { return }
        // Called by an interrupted worker: an unstructured task does not inherit its cancellation.
        let release = Task { () async throws -> Void in
            try await queueTransaction { connection in
                try await connection.run("""
                    UPDATE work_item w SET state = 'pending', holder = NULL, lease_until = NULL
                    FROM unnest($1::bigint[], $2::bigint[]) AS c(id, fence)
                    WHERE w.id = c.id AND w.fence = c.fence AND w.state = 'claimed' AND w.holder = $3
                    """, binds(claims.map(\.id), claims.map(\.fence), holder))
                try await connection.run("NOTIFY \(Self.workChannel)")
            }
        }
        try await awaitCatalogTask(release)
    }

    public func completeWork(_ claim: WorkClaim, holder: String, with result: WorkResult) async throws(CatalogError) -> WorkCommit {
        try await completeWork(claim, holder: holder, with: result, claimingNext: 0, lease: .zero).0
    }

    /// The next claim rides in the commit's transaction: one round trip and one WAL flush fewer a file. A
    /// commit whose answer is lost (the server went away after COMMIT) leaves those claims to their lease:
    /// the retry finds the result committed earlier and claims afresh, and the rows it took before go back
    /// to the queue when their lease runs out, as a dead worker's do.
    public func completeWork(
        _ claim: WorkClaim, holder: String, with result: WorkResult, claimingNext limit: Int, lease: Duration
    ) async throws(CatalogError) -> (WorkCommit, [WorkClaim]) {
        // A file that finished is committed even when the worker is being interrupted (see releaseWork).
        let commit = Task { () async throws -> (WorkCommit, [WorkClaim]) in
            try await self.write(lockTakenByBody: true) { connection in
                let commit = try await Self.commit(claim, holder: holder, with: result, now: Timestamp.now(), connection)
                let next = limit > 0 ? try await Self.claim(limit: limit, holder: holder, lease: lease, connection) : []
                return (commit, next)
            }
        }
        return try await awaitCatalogTask(commit)
    }

    /// The value of a task whose body throws only ``CatalogError``.
    private func awaitCatalogTask<T: Sendable>(_ task: Task<T, any Error>) async throws(CatalogError) -> T {
        do {
            return try await task.value
        } catch {
            throw mapped(error)
        }
    }

    /// The row `FOR UPDATE` and its fencing token, then the import or reprocess writes, inside a write
    /// transaction whose lock this takes (``write(lockTakenByBody:_:)``).
    private static func commit(
        _ claim: WorkClaim, holder: String, with result: WorkResult, now: String, _ connection: PostgresConnection
    ) async throws -> WorkCommit {
        // The write lock and the queue row's lock in one round trip (see write(lockTakenByBody:)).
        let row = try await connection.row("""
            SELECT w.state, w.holder, w.fence, w.result_id
            FROM pg_advisory_xact_lock(\(Self.writeLockKey)) AS write_lock, work_item w
            WHERE w.id = $1 FOR UPDATE OF w
            """, binds(claim.id))
        let read = try row.map {
            ClaimCheck.Row(
                state: try $0.value("state"), holder: try $0.value("holder"), fence: try $0.value("fence"), resultID: try $0.value("result_id"))
        }
        if case .answer(let commit) = ClaimCheck.decide(read, claim: claim, holder: holder) { return commit }
        let commit: WorkCommit
        let failure: String?
        let resultID: Int64?
        switch result {
        case .reprocess(let step):
            let outcome = try await Self.rewrite(step, now: now, connection)
            (commit, failure, resultID) = (.reprocessed(outcome), step.queueMessage, step.entryID)
        case .processed(let photo, let sha256, let source):
            // The common case: the queue row is finished by the same statement as the entry's rows.
            let outcome = try await Self.insertProcessed(photo, sha256: sha256, source: source, now: now, finishing: claim.id, connection)
            return .committed(outcome)
        case .known(let id, let source):
            let outcome = try await Self.noteDuplicate(id: id, source: source, now: now, connection)
            (commit, failure, resultID) = (.committed(outcome), nil, outcome.id)
        case .failed(let sha256, let problem):
            let outcome = try await Self.insertFailure(
                sha256: sha256, source: problem.source, format: problem.format, facts: problem.facts, code: problem.code,
                message: problem.message, now: now, connection)
            let failed: String? = if case .failed = outcome { problem.rowMessage } else { nil }
            (commit, failure, resultID) = (.committed(outcome), failed, outcome.id)
        case .unreadable(let message):
            (commit, failure, resultID) = (.committed(nil), message, nil)
        }
        // NOTIFY as pg_notify in the same statement: delivered at COMMIT, as the statement would be.
        try await connection.run("""
            UPDATE work_item SET state = $2, holder = NULL, lease_until = NULL, result_id = $3, message = $4, finished_at = $5
            WHERE id = $1
            RETURNING pg_notify('\(Self.workChannel)', '')
            """, binds(claim.id, failure == nil ? "done" : "failed", resultID, failure, now))
        return commit
    }

    public func workStatus() async throws(CatalogError) -> WorkStatus {
        try await readTransaction { connection in
            var counts: [String: Int] = [:]
            for row in try await connection.rows("SELECT state, count(*) AS n FROM work_item GROUP BY state") {
                counts[try row.value("state")] = try row.value("n")
            }
            let holders = try await connection.rows("""
                SELECT holder, count(*) AS n, max(lease_until) AS until, max(lease_until) < \(Self.serverNow) AS expired
                FROM work_item WHERE state = 'claimed' GROUP BY holder ORDER BY holder
                """).map { row in
                WorkStatus.Holder(
                    holder: try row.value("holder"), claimed: try row.value("n"),
                    leaseUntil: Timestamp.string(from: Date(timeIntervalSince1970: try row.value("until"))),
                    expired: try row.value("expired"))
            }
            let failures = try await connection.rows(
                "SELECT path, message FROM work_item WHERE state = 'failed' ORDER BY finished_at, id LIMIT 100"
            ).map { WorkStatus.Failure(path: try $0.value("path"), message: try $0.value("message", as: String?.self) ?? "") }
            return WorkStatus(
                pending: counts["pending"] ?? 0, claimed: counts["claimed"] ?? 0, done: counts["done"] ?? 0, failed: counts["failed"] ?? 0,
                holders: holders, failures: failures)
        }
    }

    /// Waits for `NOTIFY catalog_work` on the store's listening connection, or `timeout` (a notification
    /// lost with a broken connection costs one timeout, never a hung worker).
    public func waitForWork(timeout: Duration) async throws(CatalogError) {
        await workListener.wait(timeout: timeout)
    }

    // MARK: - Transactions

    /// Runs `body`, one statement, on its own: a statement is a transaction of its own in PostgreSQL, so the
    /// claim and the lease renewal need no BEGIN and COMMIT (two round trips fewer). Outside the write gate
    /// and lock, as ``queueTransaction(_:)``.
    private func queueStatement<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws(CatalogError) -> T {
        guard access == .readWrite else {
            throw .readOnly(path: displayName, reason: "the catalog was opened read-only")
        }
        return try await read(body)
    }

    /// Runs `body` in a short read-write transaction of its own, outside the write gate and lock: the
    /// queue's rows are locked one by one, so claims never queue behind a long commit.
    func queueTransaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws(CatalogError) -> T {
        guard access == .readWrite else {
            throw .readOnly(path: displayName, reason: "the catalog was opened read-only")
        }
        return try await read { connection in
            try await connection.transaction("BEGIN") { connection in try await body(connection) }
        }
    }
}
