import Foundation
import PostgresNIO
import Processing

extension PostgresCatalogStore {
    /// The entry holding these bytes, if any.
    public func existingEntry(sha256: String) async throws(CatalogError) -> ExistingEntry? {
        try await read { connection in
            try await Self.photo(sha256: sha256, connection).flatMap { record in
                record.id.map { id in
                    ExistingEntry(id: id, path: record.path, status: EntryStatus(storedValue: record.status),
                                  fileSize: record.fileSize, modificationTime: record.fileMtime)
                }
            }
        }
    }

    /// The entry (with a hash) recorded at `path` whose bytes are not `sha256`; nil when none.
    public func entryClaiming(path: String, otherThan sha256: String) async throws(CatalogError) -> PathClaim? {
        try await read { connection in
            try await connection.row(
                """
                SELECT id, sha256, guidance_json, clip_json FROM photo WHERE path = $1 AND sha256 IS NOT NULL AND sha256 <> $2 ORDER BY id LIMIT 1
                """,
                binds(path, sha256)
            ).map { PathClaim(
                id: try $0.value("id"), sha256: try $0.value("sha256"),
                guidance: try CutoutGuidance(storedJSON: try $0.value("guidance_json", as: String?.self)),
                clip: try ClipWindow.stored(try $0.value("clip_json", as: String?.self))) }
        }
    }

    /// Why entry `id` failed, nil when it did not.
    public func failure(id: Int64) async throws(CatalogError) -> (code: String, message: String)? {
        try await read { connection in
            try await connection.row("SELECT failure_code, failure_message FROM photo WHERE id = $1 AND status <> 'ok'", binds(id))
                .map { ((try $0.value("failure_code", as: String?.self)) ?? "failed", (try $0.value("failure_message", as: String?.self)) ?? "") }
        }
    }

    /// Entries matching `filter`, by id.
    public func entries(_ filter: EntryFilter) async throws(CatalogError) -> [EntrySummary] {
        try await read { connection in
            let condition = filter == .failed ? "WHERE status = 'failed'" : ""
            return try await connection.rows("""
                SELECT id, sha256, path, status, failure_code, failure_message FROM photo \(condition) ORDER BY id
                """).map { row in
                EntrySummary(
                    id: try row.value("id"), sha256: try row.value("sha256"), path: try row.value("path"),
                    status: EntryStatus(storedValue: try row.value("status")),
                    failureCode: try row.value("failure_code"), failureMessage: try row.value("failure_message"))
            }
        }
    }

    /// Everything about entry `id` (read in one snapshot), or nil.
    public func entry(id: Int64) async throws(CatalogError) -> EntryDetail? {
        try await readTransaction { connection in
            guard let photo = try await Self.photo(id: id, connection) else { return nil }
            let exif = try await connection.row("SELECT * FROM exif WHERE photo_id = $1", binds(id)).map(Self.exifRecord)
            let sticker = try await connection.row("""
                SELECT s.width, s.height, s.bytes, s.pipeline_version, s.settings_json, s.created_at, a.frame_count, a.duration_ms
                FROM sticker s LEFT JOIN animation a ON a.photo_id = s.photo_id WHERE s.photo_id = $1
                """, binds(id))
            let colors = try await connection.rows(
                "SELECT hex, share, l, a, b FROM palette_color WHERE photo_id = $1 ORDER BY rank", binds(id))
            let live = try await connection.row("SELECT still_id, clip_id FROM live_photo WHERE still_id = $1 OR clip_id = $1", binds(id))
            return EntryDetail(
                id: id, sha256: photo.sha256, path: photo.path, status: EntryStatus(storedValue: photo.status),
                failure: photo.failureCode.map { EntryDetail.Failure(code: $0, message: photo.failureMessage ?? "") },
                format: photo.format, width: photo.width, height: photo.height,
                exif: try exif?.metadata(),
                sticker: try sticker.map { row in
                    EntryDetail.Sticker(
                        width: try row.value("width"), height: try row.value("height"), bytes: try row.value("bytes"),
                        pipelineVersion: try row.value("pipeline_version"),
                        settings: try CatalogJSON.decode(StickerSettings.self, from: try row.value("settings_json")),
                        createdAt: try row.value("created_at"),
                        animation: try row.value("frame_count", as: Int?.self).map { frames in
                            EntryDetail.Animation(frames: frames, durationMs: try row.value("duration_ms"))
                        })
                },
                palette: try colors.map { row in
                    EntryDetail.Color(hex: try row.value("hex"), share: try row.value("share"), l: try row.value("l"),
                                      a: try row.value("a"), b: try row.value("b"))
                },
                fileSize: photo.fileSize, modificationTime: photo.fileMtime,
                importedAt: photo.importedAt, updatedAt: photo.updatedAt,
                guidance: try photo.guidanceJson.map { try CutoutGuidance(storedJSON: $0) },
                clip: try photo.clip(),
                livePhoto: try live.map { EntryDetail.LivePhoto(stillId: try $0.value("still_id"), clipId: try $0.value("clip_id")) })
        }
    }

    /// Entry `id`'s sticker PNG, nil when it has none.
    public func stickerPNG(id: Int64) async throws(CatalogError) -> [UInt8]? {
        try await read { connection in
            try await connection.row("SELECT png FROM sticker_png WHERE photo_id = $1", binds(id)).map { [UInt8](try $0.value("png", as: Data.self)) }
        }
    }

    /// The path entry `id` was last read from; nil when there is no such entry.
    public func sourcePath(id: Int64) async throws(CatalogError) -> String? {
        try await read { connection in
            try await connection.row("SELECT path FROM photo WHERE id = $1", binds(id)).map { try $0.value("path") }
        }
    }

    /// Counts and sizes for `catalog stats` (one snapshot); the size is the database's.
    public func stats() async throws(CatalogError) -> CatalogStats {
        try await readTransaction { connection in
            var byStatus: [String: Int] = [:]
            for row in try await connection.rows("SELECT status, count(*) AS n FROM photo GROUP BY status") {
                byStatus[try row.value("status")] = try row.value("n")
            }
            var failures: [String: Int] = [:]
            for row in try await connection.rows(
                "SELECT failure_code, count(*) AS n FROM photo WHERE status = 'failed' GROUP BY failure_code") {
                failures[(try row.value("failure_code", as: String?.self)) ?? "", default: 0] += try row.value("n", as: Int.self)
            }
            var versions: [Int: Int] = [:]
            for row in try await connection.rows("SELECT pipeline_version, count(*) AS n FROM sticker GROUP BY pipeline_version") {
                versions[try row.value("pipeline_version"), default: 0] += try row.value("n", as: Int.self)
            }
            let totals = try await connection.row("""
                SELECT (SELECT count(*) FROM photo) AS total,
                       (SELECT coalesce(sum(bytes), 0)::bigint FROM sticker) AS sticker_bytes,
                       (SELECT count(*) FROM palette_color) AS colors,
                       (SELECT count(*) FROM pack) AS packs,
                       pg_database_size(current_database()) AS size
                """)
            let migrations = try await connection.rows(
                "SELECT identifier FROM \(PostgresSchema.historyTable) ORDER BY identifier").map { try $0.value("identifier", as: String.self) }
            return CatalogStats(
                total: try totals?.value("total") ?? 0,
                ok: byStatus[EntryStatus.ok.rawValue] ?? 0, failed: byStatus[EntryStatus.failed.rawValue] ?? 0,
                failuresByCode: failures, stickersByPipelineVersion: versions,
                stickerBytes: try totals?.value("sticker_bytes") ?? 0,
                paletteColors: try totals?.value("colors") ?? 0,
                packs: try totals?.value("packs") ?? 0,
                fileSize: try totals?.value("size") ?? 0,
                migrations: migrations)
        }
    }

    /// The `setting` rows, by key.
    public func storedSettingRows() async throws(CatalogError) -> [(key: String, value: String)] {
        try await read { connection in
            try await connection.rows("SELECT key, value FROM setting ORDER BY key").map {
                (key: try $0.value("key", as: String.self), value: try $0.value("value", as: String.self))
            }
        }
    }

    /// Stores one setting's value (already canonical).
    public func store(_ setting: CatalogSetting, value: String) async throws(CatalogError) {
        try await write { connection in
            try await connection.run(
                "INSERT INTO setting (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                binds(setting.rawValue, value))
        }
    }

    static func exifRecord(_ row: PostgresRandomAccessRow) throws -> ExifRecord {
        ExifRecord(
            photoId: try row.value("photo_id"), make: try row.value("make"), model: try row.value("model"),
            lensModel: try row.value("lens_model"), takenAt: try row.value("taken_at"), takenAtUtc: try row.value("taken_at_utc"),
            exposureTime: try row.value("exposure_time"), fNumber: try row.value("f_number"), iso: try row.value("iso"),
            focalLength: try row.value("focal_length"), orientation: try row.value("orientation"),
            gpsLatitude: try row.value("gps_latitude"), gpsLongitude: try row.value("gps_longitude"),
            gpsAltitude: try row.value("gps_altitude"), tagsJson: try row.value("tags_json"))
    }
}
