import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// The entries a reprocess with `settings` looks at (``StaleScan``),
    /// read a page at a time so a large catalog is never read in one transaction.
    /// `pipelineVersion` and `decoderVersion` are this binary's (tests pass other ones).
    public nonisolated func reprocessCandidates(
        settings: StickerSettings, all: Bool, pipelineVersion: Int,
        decoderVersion: Int
    ) throws(CatalogError) -> [ReprocessCandidate] {
        let scan = StaleScan(settings: settings, pipelineVersion: pipelineVersion, decoderVersion: decoderVersion, all: all, catalog: path)
        var candidates: [ReprocessCandidate] = []
        var after: Int64 = 0
        let pause = TestHooks.scanPause ?? 0
        while true {
            if pause > 0 { Thread.sleep(forTimeInterval: pause) }
            let page = try read { db in
                try Row.fetchAll(db, sql: """
                    SELECT p.id, p.sha256, p.path, p.file_size, p.file_mtime, p.failure_code, p.decoder_version, p.guidance_json,
                           p.clip_json, s.pipeline_version, s.settings_json
                    FROM photo p LEFT JOIN sticker s ON s.photo_id = p.id
                    WHERE p.id > ? ORDER BY p.id LIMIT \(StaleScanRow.pageSize)
                    """, arguments: [after]).map { row in
                    StaleScanRow(
                        id: row["id"], sha256: row["sha256"], path: row["path"], fileSize: row["file_size"], fileMtime: row["file_mtime"],
                        failureCode: row["failure_code"], decoderVersion: row["decoder_version"], guidanceJSON: row["guidance_json"],
                        clipJSON: row["clip_json"], pipelineVersion: row["pipeline_version"], settingsJSON: row["settings_json"])
                }
            }
            guard let last = page.last else { return candidates }
            after = last.id
            candidates += try scan.candidates(in: page)
        }
    }
}
