import Foundation
import PostgresNIO
import Processing

/// Paging for the browser: the SQL of ``EntryStore/entryPage(_:settings:)`` (bounds and items are ``EntryPageQuery``'s and ``EntryPage/Item``'s).
extension PostgresCatalogStore {
    public func entryPage(_ query: EntryPageQuery, settings: StickerSettings) async throws(CatalogError) -> EntryPage {
        let (limit, offset) = (query.boundedLimit, query.boundedOffset)
        var conditions: [String] = []
        var bindings = PostgresBindings()
        if let status = query.status {
            bindings.append(status.rawValue)
            conditions.append("p.status = $\(bindings.count)")
        }
        if query.staleOnly {
            let permanent = StaleReason.permanentFailureCodes.sorted().map { "'\($0)'" }.joined(separator: ",")
            bindings.append(PhotoProcessor.pipelineVersion)
            // Two texts for the current settings: see `EntryPageQuery.storedJSON(of:catalog:)`.
            for json in try EntryPageQuery.storedJSON(of: settings, catalog: displayName) { bindings.append(json) }
            let count = bindings.count
            conditions.append("""
                (CASE WHEN p.failure_code IS NOT NULL THEN p.failure_code NOT IN (\(permanent))
                      ELSE s.photo_id IS NULL OR s.pipeline_version < $\(count - 2) OR s.settings_json NOT IN ($\(count - 1), $\(count)) END)
                """)
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let countBindings = bindings
        bindings.append(limit)
        bindings.append(offset)
        let pageBindings = bindings
        let count = bindings.count
        return try await readTransaction { connection in
            let total: Int = try await connection.row(
                "SELECT count(*) AS n FROM photo p LEFT JOIN sticker s ON s.photo_id = p.id \(whereClause)", countBindings
            )?.value("n") ?? 0
            let rows = try await connection.rows("""
                SELECT p.id, p.sha256, p.path, p.status, p.failure_code, p.failure_message, s.pipeline_version, s.settings_json,
                    EXISTS (SELECT 1 FROM animation a WHERE a.photo_id = p.id) AS animated
                FROM photo p LEFT JOIN sticker s ON s.photo_id = p.id
                \(whereClause)
                ORDER BY p.id DESC LIMIT $\(count - 1) OFFSET $\(count)
                """, pageBindings)
            let items = try rows.map { row in
                try EntryPage.Item(EntryPageRow(
                    id: try row.value("id"), sha256: try row.value("sha256"), path: try row.value("path"), status: try row.value("status"),
                    failureCode: try row.value("failure_code"), failureMessage: try row.value("failure_message"),
                    pipelineVersion: try row.value("pipeline_version"), settingsJSON: try row.value("settings_json"),
                    animated: try row.value("animated")
                ), settings: settings)
            }
            return EntryPage(total: total, limit: limit, offset: offset, entries: items)
        }
    }

    /// A tag that changes whenever entry `id`'s sticker is made again; nil when it has none.
    public func stickerVersion(id: Int64) async throws(CatalogError) -> String? {
        try await read { connection in
            try await connection.row("""
                SELECT p.sha256, s.created_at, s.pipeline_version FROM sticker s JOIN photo p ON p.id = s.photo_id
                WHERE s.photo_id = $1 AND p.status = 'ok'
                """, binds(id)).map { row in
                "\(try row.value("sha256", as: String?.self) ?? "-")-\(try row.value("pipeline_version", as: Int.self))-\(try row.value("created_at", as: String.self))"
            }
        }
    }

    /// Bytes used by each table and index, for benchmarks.
    public func tableSizes() async throws(CatalogError) -> [String: Int64] {
        try await read { connection in
            var sizes: [String: Int64] = [:]
            for row in try await connection.rows("""
                SELECT c.relname::text AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')
                """) {
                sizes[try row.value("name")] = try row.value("bytes")
            }
            return sizes
        }
    }
}
