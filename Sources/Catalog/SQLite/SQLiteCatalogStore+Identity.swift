import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// The entry (with a hash) recorded at `path` whose bytes are not `sha256`: the file there was edited
    /// in place since. nil when no entry claims the path, or it already holds those bytes.
    public nonisolated func entryClaiming(path: String, otherThan sha256: String) throws(CatalogError) -> PathClaim? {
        try read { db in
            let row = try Row.fetchOne(
                db, sql: """
                    SELECT id, sha256, guidance_json, clip_json FROM photo WHERE path = ? AND sha256 IS NOT NULL AND sha256 <> ? ORDER BY id LIMIT 1
                    """,
                arguments: [path, sha256]
            )
            return try row.map { PathClaim(id: $0["id"], sha256: $0["sha256"], guidance: try CutoutGuidance(storedJSON: $0["guidance_json"]),
                clip: try ClipWindow.stored($0["clip_json"])) }
        }
    }

    /// Why entry `id` failed (its recorded code and message), nil when it did not.
    public nonisolated func failure(id: Int64) throws(CatalogError) -> (code: String, message: String)? {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT failure_code, failure_message FROM photo WHERE id = ? AND status <> 'ok'", arguments: [id])
            return row.map { (($0["failure_code"] as String?) ?? "failed", ($0["failure_message"] as String?) ?? "") }
        }
    }
}
