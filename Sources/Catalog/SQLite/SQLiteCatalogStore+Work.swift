import Foundation
import GRDB
import Processing

/// The shared work queue on SQLite (`work_item`, migration 0004). Every change is one IMMEDIATE
/// transaction of the pool's writer (`CatalogDatabase.configuration`), so two processes never claim the
/// same row: the second one waits for the first one's commit (under the busy timeout) and then sees it.
extension SQLiteCatalogStore {
    public func enqueue(_ files: [SourceFile]) throws(CatalogError) -> EnqueueCount {
        guard !files.isEmpty else { return EnqueueCount() }
        let now = Timestamp.now()
        return try write { db in
            // Already imported unchanged: an entry at that path with the same size and time.
            let known = try db.cachedStatement(sql: "SELECT 1 FROM photo WHERE path = ? AND file_size = ? AND file_mtime = ? LIMIT 1")
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO work_item (kind, entry_id, path, file_size, file_mtime, state, enqueued_at)
                VALUES ('import', 0, ?, ?, ?, 'pending', ?)
                ON CONFLICT (kind, entry_id, path) DO UPDATE SET
                    state = 'pending', file_size = excluded.file_size, file_mtime = excluded.file_mtime,
                    result_id = NULL, message = NULL, finished_at = NULL, enqueued_at = excluded.enqueued_at
                WHERE work_item.state IN ('done', 'failed')
                  AND (work_item.file_size != excluded.file_size OR work_item.file_mtime != excluded.file_mtime)
                """)
            var count = EnqueueCount()
            for file in files {
                let arguments: StatementArguments = [file.path, file.size, file.modificationTime]
                if try Bool.fetchOne(known, arguments: arguments) == true {
                    count.unchanged += 1
                    continue
                }
                try upsert.execute(arguments: arguments + [now])
                if db.changesCount > 0 { count.added += 1 } else { count.unchanged += 1 }
            }
            return count
        }
    }

    public func enqueueStale(_ candidates: [ReprocessCandidate]) throws(CatalogError) -> Int {
        guard !candidates.isEmpty else { return 0 }
        let now = Timestamp.now()
        return try write { db in
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO work_item (kind, entry_id, path, file_size, file_mtime, state, enqueued_at)
                VALUES ('reprocess', ?, ?, 0, 0, 'pending', ?)
                ON CONFLICT (kind, entry_id, path) DO UPDATE SET
                    state = 'pending', result_id = NULL, message = NULL, finished_at = NULL, enqueued_at = excluded.enqueued_at
                WHERE work_item.state IN ('done', 'failed')
                """)
            var added = 0
            for candidate in candidates {
                try upsert.execute(arguments: [candidate.id, candidate.path, now])
                added += db.changesCount
            }
            return added
        }
    }

    public func claimWork(limit: Int, holder: String, lease: Duration) throws(CatalogError) -> [WorkClaim] {
        let now = Date().timeIntervalSince1970
        return try write { db in
            let ids = try Int64.fetchAll(db, sql: """
                SELECT id FROM work_item
                WHERE state = 'pending' OR (state = 'claimed' AND lease_until < ?)
                ORDER BY id LIMIT ?
                """, arguments: [now, max(1, limit)])
            var claims: [WorkClaim] = []
            for id in ids {
                try db.execute(
                    sql: "UPDATE work_item SET state = 'claimed', holder = ?, lease_until = ?, fence = fence + 1 WHERE id = ?",
                    arguments: [holder, now + lease.timeInterval, id])
                if let row = try Row.fetchOne(
                    db, sql: "SELECT kind, entry_id, path, file_size, file_mtime, fence FROM work_item WHERE id = ?", arguments: [id])
                {
                    claims.append(WorkClaim(
                        id: id, source: SourceFile(path: row["path"], size: row["file_size"], modificationTime: row["file_mtime"]),
                        entryID: (row["kind"] as String) == "reprocess" ? row["entry_id"] : nil, fence: row["fence"]))
                }
            }
            return claims
        }
    }

    public func renewLeases(_ claims: [WorkClaim], holder: String, lease: Duration) throws(CatalogError) -> [Int64] {
        guard !claims.isEmpty else { return [] }
        let until = Date().timeIntervalSince1970 + lease.timeInterval
        return try write { db in
            var lost: [Int64] = []
            for claim in claims {
                try db.execute(
                    sql: "UPDATE work_item SET lease_until = ? WHERE id = ? AND state = 'claimed' AND holder = ? AND fence = ?",
                    arguments: [until, claim.id, holder, claim.fence])
                if db.changesCount == 0 { lost.append(claim.id) }
            }
            return lost
        }
    }

    public func releaseWork(_ claims: [WorkClaim], holder: String) throws(CatalogError) {
        guard !claims.isEmpty else { return }
        try write { db in
            for claim in claims {
                try db.execute(
                    sql: """
                        UPDATE work_item SET state = 'pending', holder = NULL, lease_until = NULL
                        WHERE id = ? AND state = 'claimed' AND holder = ? AND fence = ?
                        """,
                    arguments: [claim.id, holder, claim.fence])
            }
        }
    }

    public func completeWork(_ claim: WorkClaim, holder: String, with result: WorkResult) throws(CatalogError) -> WorkCommit {
        let now = Timestamp.now()
        return try StageClock.measure(.commit) { () throws(CatalogError) in
            try write { db in
                let row = try Row.fetchOne(db, sql: "SELECT state, holder, fence, result_id FROM work_item WHERE id = ?", arguments: [claim.id])
                let read = row.map { ClaimCheck.Row(state: $0["state"], holder: $0["holder"], fence: $0["fence"], resultID: $0["result_id"]) }
                if case .answer(let commit) = ClaimCheck.decide(read, claim: claim, holder: holder) { return commit }
                if case .reprocess(let step) = result {
                    let outcome = try Self.rewrite(step, now: now, db)
                    try Self.finish(claim, failure: step.queueMessage, resultID: step.entryID, now: now, db)
                    return .reprocessed(outcome)
                }
                let outcome: ImportOutcome?
                let failure: String?
                switch result {
                case .processed(let photo, let sha256, let source):
                    outcome = try Self.insertProcessed(photo, sha256: sha256, source: source, now: now, db)
                    failure = nil
                case .known(let id, let source):
                    outcome = try Self.noteDuplicate(id: id, source: source, now: now, db)
                    failure = nil
                case .failed(let sha256, let problem):
                    outcome = try Self.insertFailure(
                        sha256: sha256, source: problem.source, format: problem.format, facts: problem.facts, code: problem.code,
                        message: problem.message, now: now, db)
                    failure = if case .failed = outcome { problem.rowMessage } else { nil }
                case .unreadable(let message):
                    outcome = nil
                    failure = message
                case .reprocess:
                    return .fenced  // handled above
                }
                try Self.finish(claim, failure: failure, resultID: outcome?.id, now: now, db)
                return .committed(outcome)
            }
        }
    }

    /// Marks a claimed row done (or failed, with `failure`), in the caller's transaction.
    private static func finish(_ claim: WorkClaim, failure: String?, resultID: Int64?, now: String, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE work_item SET state = ?, holder = NULL, lease_until = NULL, result_id = ?, message = ?, finished_at = ?
                WHERE id = ?
                """,
            arguments: [failure == nil ? "done" : "failed", resultID, failure, now, claim.id])
    }

    public nonisolated func workStatus() throws(CatalogError) -> WorkStatus {
        let now = Date().timeIntervalSince1970
        return try read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM work_item GROUP BY state") {
                counts[row["state"]] = row["n"]
            }
            let holders = try Row.fetchAll(db, sql: """
                SELECT holder, count(*) AS n, max(lease_until) AS until FROM work_item
                WHERE state = 'claimed' GROUP BY holder ORDER BY holder
                """).map { row in
                let until: Double = row["until"]
                return WorkStatus.Holder(
                    holder: row["holder"], claimed: row["n"], leaseUntil: Timestamp.string(from: Date(timeIntervalSince1970: until)),
                    expired: until < now)
            }
            let failures = try Row.fetchAll(
                db, sql: "SELECT path, message FROM work_item WHERE state = 'failed' ORDER BY finished_at, id LIMIT 100"
            ).map { WorkStatus.Failure(path: $0["path"], message: ($0["message"] as String?) ?? "") }
            return WorkStatus(
                pending: counts["pending"] ?? 0, claimed: counts["claimed"] ?? 0, done: counts["done"] ?? 0, failed: counts["failed"] ?? 0,
                holders: holders, failures: failures)
        }
    }

    /// SQLite has no notifications between processes: waits a modest interval (at most `timeout`, one
    /// second), after which the worker looks at the queue again.
    public nonisolated func waitForWork(timeout: Duration) async throws(CatalogError) {
        try? await Task.sleep(for: min(timeout, .seconds(1)))
    }
}

extension ImportOutcome {
    /// The entry the outcome is about.
    var id: Int64 {
        switch self {
        case .imported(let id), .failed(let id): id
        case .duplicate(let id, _): id
        }
    }
}
