import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// The entry holding these bytes, if any: what the import checks before processing a file.
    public nonisolated func existingEntry(sha256: String) throws(CatalogError) -> ExistingEntry? {
        try read { db in
            try PhotoRecord.filter(PhotoRecord.Columns.sha256 == sha256).fetchOne(db).flatMap { record in
                record.id.map { id in
                    ExistingEntry(
                        id: id, path: record.path, status: EntryStatus(storedValue: record.status),
                        fileSize: record.fileSize, modificationTime: record.fileMtime
                    )
                }
            }
        }
    }

    /// Entries matching `filter`, by id.
    public nonisolated func entries(_ filter: EntryFilter) throws(CatalogError) -> [EntrySummary] {
        try read { db in
            var request = PhotoRecord.order(PhotoRecord.Columns.id)
            if filter == .failed {
                request = request.filter(PhotoRecord.Columns.status == EntryStatus.failed.rawValue)
            }
            return try request.fetchAll(db).compactMap { record in
                record.id.map { id in
                    EntrySummary(
                        id: id, sha256: record.sha256, path: record.path, status: EntryStatus(storedValue: record.status),
                        failureCode: record.failureCode, failureMessage: record.failureMessage
                    )
                }
            }
        }
    }

    /// Everything about entry `id`, or nil when there is no such entry. Read in one transaction,
    /// so the parts are consistent with each other.
    public nonisolated func entry(id: Int64) throws(CatalogError) -> EntryDetail? {
        try read { db in
            guard let photo = try PhotoRecord.fetchOne(db, key: id) else { return nil }
            let exif = try ExifRecord.fetchOne(db, key: id)
            let sticker = try StickerRecord.fetchOne(db, key: id)
            let animation = try Row.fetchOne(db, sql: "SELECT frame_count, duration_ms FROM animation WHERE photo_id = ?", arguments: [id])
            let live = try Row.fetchOne(db, sql: "SELECT still_id, clip_id FROM live_photo WHERE still_id = ? OR clip_id = ?", arguments: [id, id])
            let colors = try PaletteColorRecord
                .filter(PaletteColorRecord.Columns.photoId == id)
                .order(PaletteColorRecord.Columns.rank)
                .fetchAll(db)
            return EntryDetail(
                id: id,
                sha256: photo.sha256,
                path: photo.path,
                status: EntryStatus(storedValue: photo.status),
                failure: photo.failureCode.map { EntryDetail.Failure(code: $0, message: photo.failureMessage ?? "") },
                format: photo.format,
                width: photo.width,
                height: photo.height,
                exif: try exif?.metadata(),
                sticker: try sticker.map { sticker in
                    EntryDetail.Sticker(
                        width: sticker.width, height: sticker.height, bytes: sticker.bytes,
                        pipelineVersion: sticker.pipelineVersion,
                        settings: try CatalogJSON.decode(StickerSettings.self, from: sticker.settingsJson),
                        createdAt: sticker.createdAt,
                        animation: animation.map { EntryDetail.Animation(frames: $0["frame_count"], durationMs: $0["duration_ms"]) }
                    )
                },
                palette: colors.map { EntryDetail.Color(hex: $0.hex, share: $0.share, l: $0.l, a: $0.a, b: $0.b) },
                fileSize: photo.fileSize,
                modificationTime: photo.fileMtime,
                importedAt: photo.importedAt,
                updatedAt: photo.updatedAt,
                guidance: try photo.guidanceJson.map { try CutoutGuidance(storedJSON: $0) },
                clip: try photo.clip(),
                livePhoto: live.map { EntryDetail.LivePhoto(stillId: $0["still_id"], clipId: $0["clip_id"]) }
            )
        }
    }

    /// The PNG bytes of entry `id`'s sticker, or nil when it has none.
    public nonisolated func stickerPNG(id: Int64) throws(CatalogError) -> [UInt8]? {
        try read { db in
            try StickerPNGRecord.fetchOne(db, key: id).map { Array($0.png) }
        }
    }

    /// Counts and sizes for `catalog stats`, read in one transaction.
    public nonisolated func stats() throws(CatalogError) -> CatalogStats {
        let counts = try read { db in
            let byStatus = try Row.fetchAll(db, sql: "SELECT status, count(*) AS n FROM photo GROUP BY status")
            let failures = try Row.fetchAll(db, sql: """
                SELECT failure_code, count(*) AS n FROM photo WHERE status = 'failed' GROUP BY failure_code
                """)
            let versions = try Row.fetchAll(db, sql: """
                SELECT pipeline_version, count(*) AS n FROM sticker GROUP BY pipeline_version
                """)
            func count(_ status: EntryStatus) -> Int {
                byStatus.first { $0["status"] == status.rawValue }?["n"] ?? 0
            }
            return CatalogStats(
                total: try PhotoRecord.fetchCount(db),
                ok: count(.ok),
                failed: count(.failed),
                failuresByCode: Dictionary(
                    failures.map { (($0["failure_code"] as String?) ?? "", $0["n"] as Int) },
                    uniquingKeysWith: +
                ),
                stickersByPipelineVersion: Dictionary(
                    versions.map { ($0["pipeline_version"] as Int, $0["n"] as Int) },
                    uniquingKeysWith: +
                ),
                stickerBytes: try Int64.fetchOne(db, sql: "SELECT coalesce(sum(bytes), 0) FROM sticker") ?? 0,
                paletteColors: try PaletteColorRecord.fetchCount(db),
                packs: try PackRecord.fetchCount(db),
                fileSize: 0,
                migrations: try CatalogMigrations.migrator.appliedMigrations(db)
            )
        }
        var stats = counts
        stats.fileSize = CatalogFile.size(at: path) + CatalogFile.size(at: path + "-wal")
        return stats
    }
}
