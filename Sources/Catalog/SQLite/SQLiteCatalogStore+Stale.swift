import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// The entries a reprocess with `settings` looks at, by id: those with a recorded reason to run
    /// (or every entry when `all`), and those whose file's size or modification time changed (a possible
    /// new version of the source). Read a page at a time, so a large catalog is never read in one
    /// transaction; each candidate's file is checked with stat(2).
    /// `pipelineVersion` and `decoderVersion` are this binary's (tests pass other ones).
    public nonisolated func reprocessCandidates(
        settings: StickerSettings, all: Bool, pipelineVersion: Int,
        decoderVersion: Int
    ) throws(CatalogError) -> [ReprocessCandidate] {
        var candidates: [ReprocessCandidate] = []
        var after: Int64 = 0
        let pause = TestHooks.scanPause ?? 0
        while true {
            if pause > 0 { Thread.sleep(forTimeInterval: pause) }
            let page = try read { db in
                try Row.fetchAll(db, sql: """
                    SELECT p.id, p.sha256, p.path, p.file_size, p.file_mtime, p.failure_code, p.decoder_version, p.guidance_json,
                           s.pipeline_version, s.settings_json
                    FROM photo p LEFT JOIN sticker s ON s.photo_id = p.id
                    WHERE p.id > ? ORDER BY p.id LIMIT 1000
                    """, arguments: [after])
            }
            guard let last = page.last else { return candidates }
            after = last["id"]
            for row in page {
                if let candidate = try candidate(row, settings: settings, pipelineVersion: pipelineVersion, decoderVersion: decoderVersion, all: all) {
                    candidates.append(candidate)
                }
            }
        }
    }

    private nonisolated func candidate(
        _ row: Row, settings: StickerSettings, pipelineVersion: Int, decoderVersion: Int, all: Bool
    ) throws(CatalogError) -> ReprocessCandidate? {
        let sha256: String? = row["sha256"]
        let path: String = row["path"]
        var sticker: (pipelineVersion: Int, settings: StickerSettings)?
        if let version = row["pipeline_version"] as Int?, let json = row["settings_json"] as String? {
            do {
                sticker = (version, try CatalogJSON.decode(StickerSettings.self, from: json))
            } catch {
                throw .database(path: self.path, message: "entry \(row["id"] as Int64) has unreadable sticker settings: \(error)")
            }
        }
        let reasons = StaleReason.recorded(
            sticker: sticker, failureCode: row["failure_code"], current: settings, pipelineVersion: pipelineVersion,
            recordedDecoderVersion: (row["decoder_version"] as Int?) ?? 1, decoderVersion: decoderVersion
        )
        var info = stat()
        let source: ReprocessCandidate.Source
        if EscapedPath.withSystemPath(path, { stat($0, &info) }) != 0 {
            source = errno == ENOENT || errno == ENOTDIR ? .missing : .differs
        } else {
            let mtime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            // An unreadable entry (no hash) recorded no size: only its `failed` reason counts.
            let same = sha256 == nil || (Int64(info.st_size) == row["file_size"] && mtime == row["file_mtime"])
            source = same ? .unchanged : .differs
        }
        guard all || !reasons.isEmpty || source == .differs else { return nil }
        let guidance: CutoutGuidance
        do {
            guidance = try CutoutGuidance(storedJSON: row["guidance_json"])
        } catch {
            throw .database(path: self.path, message: "entry \(row["id"] as Int64) has unreadable cut-out guidance: \(error)")
        }
        return ReprocessCandidate(
            id: row["id"], sha256: sha256, path: path, hasSticker: sticker != nil, reasons: reasons, source: source, guidance: guidance)
    }
}
