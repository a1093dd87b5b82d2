import GRDB
import Processing

extension SQLiteCatalogStore {
    /// A page of entries, newest (highest id) first, and the number matching in all, read in one
    /// transaction so the two agree. `settings` are the catalog's current ones (what `settings` staleness
    /// is measured against).
    public nonisolated func entryPage(_ query: EntryPageQuery, settings: StickerSettings) throws(CatalogError) -> EntryPage {
        let (limit, offset) = (query.boundedLimit, query.boundedOffset)
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let status = query.status {
            conditions.append("p.status = ?")
            arguments.append(status.rawValue)
        }
        if query.staleOnly {
            // The SQL twin of StaleReason.recorded: a retried failure, a missing sticker, an older
            // pipeline or other settings (settings_json is canonical text, so text equality is value equality;
            // a sticker stored before precision was a setting has a second text for the same settings).
            let permanent = StaleReason.permanentFailureCodes.sorted().map { "'\($0)'" }.joined(separator: ",")
            conditions.append("""
                (CASE WHEN p.failure_code IS NOT NULL THEN p.failure_code NOT IN (\(permanent))
                      ELSE s.photo_id IS NULL OR s.pipeline_version < ? OR s.settings_json NOT IN (?, ?) END)
                """)
            arguments.append(PhotoProcessor.pipelineVersion)
            for json in try EntryPageQuery.storedJSON(of: settings, catalog: path) { arguments.append(json) }
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let join = query.staleOnly ? "LEFT JOIN sticker s ON s.photo_id = p.id" : ""
        return try read { db in
            let total = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM photo p \(join) \(whereClause)", arguments: StatementArguments(arguments)
            ) ?? 0
            let rows = try Row.fetchAll(db, sql: """
                SELECT p.id, p.sha256, p.path, p.status, p.failure_code, p.failure_message,
                       s.pipeline_version, s.settings_json, EXISTS (SELECT 1 FROM animation a WHERE a.photo_id = p.id) AS animated
                FROM photo p LEFT JOIN sticker s ON s.photo_id = p.id
                \(whereClause)
                ORDER BY p.id DESC LIMIT ? OFFSET ?
                """, arguments: StatementArguments(arguments + [limit, offset]))
            let items = try rows.map { row in
                try EntryPage.Item(EntryPageRow(
                    id: row["id"], sha256: row["sha256"], path: row["path"], status: row["status"], failureCode: row["failure_code"],
                    failureMessage: row["failure_message"], pipelineVersion: row["pipeline_version"], settingsJSON: row["settings_json"],
                    animated: row["animated"]
                ), settings: settings)
            }
            return EntryPage(total: total, limit: limit, offset: offset, entries: items)
        }
    }

    /// A tag that changes whenever entry `id`'s sticker is made again (its photo's hash and the
    /// sticker's creation time), for HTTP caching; nil when the entry has no sticker.
    public nonisolated func stickerVersion(id: Int64) throws(CatalogError) -> String? {
        try read { db in
            try Row.fetchOne(db, sql: """
                SELECT p.sha256, s.created_at, s.pipeline_version FROM sticker s JOIN photo p ON p.id = s.photo_id
                WHERE s.photo_id = ? AND p.status = 'ok'
                """, arguments: [id]).map { row in
                "\((row["sha256"] as String?) ?? "-")-\(row["pipeline_version"] as Int)-\(row["created_at"] as String)"
            }
        }
    }

    /// Entry `id`'s recorded source path, or nil when there is no such entry.
    public nonisolated func sourcePath(id: Int64) throws(CatalogError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT path FROM photo WHERE id = ?", arguments: [id])
        }
    }
}
