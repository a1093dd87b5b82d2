import Foundation
import PostgresNIO
import Processing

#if canImport(Glibc)
import Glibc
#endif

/// Reprocessing on PostgreSQL: the SQLite store's rules (SQLiteCatalogStore+Reprocess, +Stale), each
/// replacement one transaction, checked against the hash the candidate was read with.
extension PostgresCatalogStore {
    public func reprocessCandidates(
        settings: StickerSettings, all: Bool, pipelineVersion: Int, decoderVersion: Int
    ) async throws(CatalogError) -> [ReprocessCandidate] {
        var candidates: [ReprocessCandidate] = []
        var after: Int64 = 0
        while true {
            let page = try await read { connection in
                try await connection.rows("""
                    SELECT p.id, p.sha256, p.path, p.file_size, p.file_mtime, p.failure_code, p.decoder_version, p.guidance_json,
                           s.pipeline_version, s.settings_json
                    FROM photo p LEFT JOIN sticker s ON s.photo_id = p.id
                    WHERE p.id > $1 ORDER BY p.id LIMIT 1000
                    """, binds(after))
            }
            guard let last = page.last else { return candidates }
            do {
                after = try last.value("id")
                for row in page {
                    if let candidate = try candidate(row, settings: settings, pipelineVersion: pipelineVersion, decoderVersion: decoderVersion, all: all) {
                        candidates.append(candidate)
                    }
                }
            } catch {
                throw mapped(error)
            }
        }
    }

    private func candidate(
        _ row: PostgresRandomAccessRow, settings: StickerSettings, pipelineVersion: Int, decoderVersion: Int, all: Bool
    ) throws -> ReprocessCandidate? {
        let id: Int64 = try row.value("id")
        let sha256: String? = try row.value("sha256")
        let path: String = try row.value("path")
        var sticker: (pipelineVersion: Int, settings: StickerSettings)?
        if let version = try row.value("pipeline_version", as: Int?.self), let json = try row.value("settings_json", as: String?.self) {
            do {
                sticker = (version, try CatalogJSON.decode(StickerSettings.self, from: json))
            } catch {
                throw CatalogError.database(path: displayName, message: "entry \(id) has unreadable sticker settings: \(error)")
            }
        }
        let reasons = StaleReason.recorded(
            sticker: sticker, failureCode: try row.value("failure_code"), current: settings, pipelineVersion: pipelineVersion,
            recordedDecoderVersion: try row.value("decoder_version", as: Int?.self) ?? 1, decoderVersion: decoderVersion)
        var info = stat()
        let source: ReprocessCandidate.Source
        if EscapedPath.withSystemPath(path, { stat($0, &info) }) != 0 {
            source = errno == ENOENT || errno == ENOTDIR ? .missing : .differs
        } else {
            let mtime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            let size: Int64 = try row.value("file_size")
            let recordedTime: Double = try row.value("file_mtime")
            let same = sha256 == nil || (Int64(info.st_size) == size && mtime == recordedTime)
            source = same ? .unchanged : .differs
        }
        guard all || !reasons.isEmpty || source == .differs else { return nil }
        let guidance: CutoutGuidance
        do {
            guidance = try CutoutGuidance(storedJSON: try row.value("guidance_json", as: String?.self))
        } catch {
            throw CatalogError.database(path: displayName, message: "entry \(id) has unreadable cut-out guidance: \(error)")
        }
        return ReprocessCandidate(
            id: id, sha256: sha256, path: path, hasSticker: sticker != nil, reasons: reasons, source: source, guidance: guidance)
    }

    public func replace(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, with photo: ProcessedPhoto, sha256: String,
        source: SourceFile, guidance: CutoutGuidance?
    ) async throws(CatalogError) -> ReprocessOutcome {
        let now = Timestamp.now()
        return try await write { connection in
            try await Self.replace(
                id: id, expectedSHA256: expectedSHA256, expectedGuidance: expectedGuidance, with: photo, sha256: sha256, source: source,
                guidance: guidance, now: now, connection)
        }
    }

    public func replaceWithFailure(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, sha256: String, source: SourceFile, format: ImageFormat?,
        facts: PhotoFacts?, code: String, message: String
    ) async throws(CatalogError) -> ReprocessOutcome {
        let now = Timestamp.now()
        return try await write { connection in
            try await Self.replaceWithFailure(
                id: id, expectedSHA256: expectedSHA256, expectedGuidance: expectedGuidance, sha256: sha256, source: source, format: format,
                facts: facts, code: code, message: message, now: now, connection)
        }
    }

    public func refreshSource(id: Int64, expectedSHA256: String?, source: SourceFile) async throws(CatalogError) -> ReprocessOutcome {
        let now = Timestamp.now()
        return try await write { connection in
            try await Self.refreshSource(id: id, expectedSHA256: expectedSHA256, source: source, now: now, connection)
        }
    }

    public func resolveDuplicate(id: Int64, expectedSHA256: String?, sha256: String) async throws(CatalogError) -> ReprocessOutcome {
        try await write { connection in
            try await Self.resolveDuplicate(id: id, expectedSHA256: expectedSHA256, sha256: sha256, connection)
        }
    }

    // MARK: - Inside a write transaction (the methods above, and a worker's commit)

    static func replace(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, with photo: ProcessedPhoto, sha256: String,
        source: SourceFile, guidance: CutoutGuidance?, now: String, _ connection: PostgresConnection
    ) async throws -> ReprocessOutcome {
        try await rewrite(
            id: id, expectedSHA256: expectedSHA256, expectedGuidance: expectedGuidance, sha256: sha256, source: source, content: photo,
            exif: nil, outcome: .replaced, now: now, connection
        ) { record in
            if let guidance { record.guidanceJson = try guidance.storedJSON() }
            record.format = photo.format.rawValue
            record.width = photo.width
            record.height = photo.height
            record.status = EntryStatus.ok.rawValue
            record.failureCode = nil
            record.failureMessage = nil
        }
    }

    static func replaceWithFailure(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, sha256: String, source: SourceFile, format: ImageFormat?,
        facts: PhotoFacts?, code: String, message: String, now: String, _ connection: PostgresConnection
    ) async throws -> ReprocessOutcome {
        try await rewrite(
            id: id, expectedSHA256: expectedSHA256, expectedGuidance: expectedGuidance, sha256: sha256, source: source, content: nil,
            exif: facts?.exif, outcome: .failed, now: now, connection
        ) { record in
            record.format = (facts?.format ?? format)?.rawValue
            record.width = facts?.width
            record.height = facts?.height
            record.status = EntryStatus.failed.rawValue
            record.failureCode = code
            record.failureMessage = message
        }
    }

    private static func rewrite(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, sha256: String, source: SourceFile, content: ProcessedPhoto?,
        exif: ExifMetadata?, outcome: ReprocessOutcome, now: String, _ connection: PostgresConnection,
        fields: (inout PhotoRecord) throws -> Void
    ) async throws -> ReprocessOutcome {
        guard var record = try await unchangedRecord(id: id, expectedSHA256: expectedSHA256, connection),
              try expectedGuidance.map({ try record.guidance() == $0 }) ?? true
        else { return .changedMeanwhile }
        if let duplicate = try await duplicate(of: record, newSHA256: sha256, connection) { return duplicate }
        for table in ["palette_color", "sticker_png", "sticker", "exif"] {
            try await connection.run("DELETE FROM \(table) WHERE photo_id = $1", binds(id))
        }
        record.sha256 = sha256
        record.fileSize = source.size
        record.fileMtime = source.modificationTime
        record.updatedAt = now
        record.decoderVersion = PhotoDecoder.decoderVersion
        try fields(&record)
        try await connection.run("""
            UPDATE photo SET sha256 = $2, path = $3, file_size = $4, file_mtime = $5, format = $6, width = $7, height = $8,
                status = $9, failure_code = $10, failure_message = $11, updated_at = $12, decoder_version = $13, guidance_json = $14
            WHERE id = $1
            """, binds(id, record.sha256, record.path, record.fileSize, record.fileMtime, record.format, record.width, record.height,
                       record.status, record.failureCode, record.failureMessage, record.updatedAt, record.decoderVersion,
                       record.guidanceJson))
        if let content {
            try await insertContent(of: content, id: id, now: now, connection)
        } else if let exif {
            try await insert(try ExifRecord(photoId: id, exif: exif), connection)
        }
        return outcome
    }

    static func refreshSource(
        id: Int64, expectedSHA256: String?, source: SourceFile, now: String, _ connection: PostgresConnection
    ) async throws -> ReprocessOutcome {
        guard try await unchangedRecord(id: id, expectedSHA256: expectedSHA256, connection) != nil else { return .changedMeanwhile }
        try await connection.run(
            "UPDATE photo SET file_size = $2, file_mtime = $3, updated_at = $4 WHERE id = $1",
            binds(id, source.size, source.modificationTime, now))
        return .sourceRefreshed
    }

    static func resolveDuplicate(
        id: Int64, expectedSHA256: String?, sha256: String, _ connection: PostgresConnection
    ) async throws -> ReprocessOutcome {
        guard let record = try await unchangedRecord(id: id, expectedSHA256: expectedSHA256, connection) else { return .changedMeanwhile }
        return try await duplicate(of: record, newSHA256: sha256, connection) ?? .changedMeanwhile
    }

    private static func unchangedRecord(id: Int64, expectedSHA256: String?, _ connection: PostgresConnection) async throws -> PhotoRecord? {
        guard let record = try await photo(id: id, connection), record.sha256 == expectedSHA256 else { return nil }
        return record
    }

    /// When the new bytes are catalogued under another entry: the outcome, after removing an unreadable placeholder.
    private static func duplicate(of record: PhotoRecord, newSHA256: String, _ connection: PostgresConnection) async throws -> ReprocessOutcome? {
        guard newSHA256 != record.sha256, let other = try await photo(sha256: newSHA256, connection), let otherID = other.id,
              let id = record.id else { return nil }
        if record.sha256 == nil {
            try await connection.run("DELETE FROM photo WHERE id = $1", binds(id))
            return .duplicate(of: otherID, removed: true)
        }
        return .duplicate(of: otherID, removed: false)
    }
}
