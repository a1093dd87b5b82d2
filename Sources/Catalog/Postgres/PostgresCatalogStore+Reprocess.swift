import Foundation
import PostgresNIO
import Processing

/// Reprocessing on PostgreSQL: the reads and writes of ``ReprocessStore`` (the rules are ``ReprocessStep``'s
/// and ``StaleScan``'s).
extension PostgresCatalogStore {
    public func reprocessCandidates(
        settings: StickerSettings, all: Bool, pipelineVersion: Int, decoderVersion: Int
    ) async throws(CatalogError) -> [ReprocessCandidate] {
        let scan = StaleScan(
            settings: settings, pipelineVersion: pipelineVersion, decoderVersion: decoderVersion, all: all, catalog: displayName)
        var candidates: [ReprocessCandidate] = []
        var after: Int64 = 0
        while true {
            let page = try await read { connection in
                try await connection.rows("""
                    SELECT p.id, p.sha256, p.path, p.file_size, p.file_mtime, p.failure_code, p.decoder_version, p.guidance_json,
                           p.clip_json, s.pipeline_version, s.settings_json
                    FROM photo p LEFT JOIN sticker s ON s.photo_id = p.id
                    WHERE p.id > $1 ORDER BY p.id LIMIT \(StaleScanRow.pageSize)
                    """, binds(after)).map(Self.staleScanRow)
            }
            guard let last = page.last else { return candidates }
            after = last.id
            candidates += try scan.candidates(in: page)
        }
    }

    private static func staleScanRow(_ row: PostgresRandomAccessRow) throws -> StaleScanRow {
        StaleScanRow(
            id: try row.value("id"), sha256: try row.value("sha256"), path: try row.value("path"),
            fileSize: try row.value("file_size"), fileMtime: try row.value("file_mtime"), failureCode: try row.value("failure_code"),
            decoderVersion: try row.value("decoder_version"), guidanceJSON: try row.value("guidance_json"),
            clipJSON: try row.value("clip_json"), pipelineVersion: try row.value("pipeline_version"), settingsJSON: try row.value("settings_json"))
    }

    public func rewrite(_ step: ReprocessStep) async throws(CatalogError) -> ReprocessOutcome {
        let now = Timestamp.now()
        return try await write { connection in try await Self.rewrite(step, now: now, connection) }
    }

    /// ``rewrite(_:)`` inside the caller's write transaction (also a worker's commit): reads the entry and
    /// the entry holding the new bytes in one statement, then writes what ``ReprocessStep/plan(found:now:)`` says.
    static func rewrite(_ step: ReprocessStep, now: String, _ connection: PostgresConnection) async throws -> ReprocessOutcome {
        let id = step.entryID
        let found = try await connection.rows(
            "SELECT \(photoColumns) FROM photo WHERE id = $1 OR sha256 = $2", binds(id, step.newSHA256)
        ).map(photoRecord)
        switch try step.plan(found: found, now: now) {
        case .nothing(let outcome):
            return outcome
        case .deleteEntry(let outcome):
            try await connection.run("DELETE FROM photo WHERE id = $1", binds(id))
            return outcome
        case .updateEntry(let record, let outcome):
            try await update(record, connection)
            return outcome
        case .replaceContent(let record, let content, let exif, let outcome):
            for table in ["palette_color", "sticker_png", "sticker", "exif"] {
                try await connection.run("DELETE FROM \(table) WHERE photo_id = $1", binds(id))
            }
            try await update(record, connection)
            if let content {
                try await insertContent(of: content, id: id, now: now, connection)
            } else if let exif {
                try await insert(try ExifRecord(photoId: id, exif: exif), connection)
            }
            return outcome
        }
    }

    /// Writes every column of the entry's row but its id and import time.
    private static func update(_ record: PhotoRecord, _ connection: PostgresConnection) async throws {
        try await connection.run("""
            UPDATE photo SET sha256 = $2, path = $3, file_size = $4, file_mtime = $5, format = $6, width = $7, height = $8,
                status = $9, failure_code = $10, failure_message = $11, updated_at = $12, decoder_version = $13, guidance_json = $14,
                clip_json = $15
            WHERE id = $1
            """, binds(record.id, record.sha256, record.path, record.fileSize, record.fileMtime, record.format, record.width, record.height,
                       record.status, record.failureCode, record.failureMessage, record.updatedAt, record.decoderVersion,
                       record.guidanceJson, record.clipJson))
    }
}
