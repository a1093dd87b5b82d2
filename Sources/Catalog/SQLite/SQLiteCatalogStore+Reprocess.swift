import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// Replaces entry `id` with `photo` made from the bytes `sha256` read at `source`, in one transaction:
    /// photo fields, EXIF, sticker, sticker PNG and palette together, so the entry is the old one or the
    /// new one, complete either way. `expectedSHA256` is the hash the entry had when it was read (and
    /// `expectedGuidance`, when given, its guidance); if it changed since, nothing is written. `guidance`, when
    /// given, is stored with the new content (`.none` clears it).
    public func replace(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, with photo: ProcessedPhoto, sha256: String,
        source: SourceFile, guidance: CutoutGuidance?
    ) throws(CatalogError) -> ReprocessOutcome {
        let now = Timestamp.now()
        return try write { db in
            try Self.replace(
                id: id, expectedSHA256: expectedSHA256, expectedGuidance: expectedGuidance, with: photo, sha256: sha256, source: source,
                guidance: guidance, now: now, db)
        }
    }

    /// Records that entry `id` failed for the bytes `sha256` read at `source`: its sticker, palette and
    /// EXIF go (they described other bytes, or there were none), in one transaction.
    /// `facts` (when the bytes decoded before the failure) are kept: format, upright size and EXIF.
    public func replaceWithFailure(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, sha256: String, source: SourceFile, format: ImageFormat?,
        facts: PhotoFacts?, code: String, message: String
    ) throws(CatalogError) -> ReprocessOutcome {
        let now = Timestamp.now()
        return try write { db in
            try Self.replaceWithFailure(
                id: id, expectedSHA256: expectedSHA256, expectedGuidance: expectedGuidance, sha256: sha256, source: source, format: format,
                facts: facts, code: code, message: message, now: now, db)
        }
    }

    /// ``replace(id:expectedSHA256:expectedGuidance:with:sha256:source:guidance:)`` inside the caller's write transaction.
    static func replace(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, with photo: ProcessedPhoto, sha256: String,
        source: SourceFile, guidance: CutoutGuidance?, now: String, _ db: Database
    ) throws -> ReprocessOutcome {
        try rewrite(
            id: id, expectedSHA256: expectedSHA256, expectedGuidance: expectedGuidance, sha256: sha256, source: source, content: photo,
            exif: nil, outcome: .replaced, now: now, db
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

    /// ``replaceWithFailure(id:expectedSHA256:expectedGuidance:sha256:source:format:facts:code:message:)`` inside the
    /// caller's write transaction.
    static func replaceWithFailure(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, sha256: String, source: SourceFile, format: ImageFormat?,
        facts: PhotoFacts?, code: String, message: String, now: String, _ db: Database
    ) throws -> ReprocessOutcome {
        try rewrite(
            id: id, expectedSHA256: expectedSHA256, expectedGuidance: expectedGuidance, sha256: sha256, source: source, content: nil,
            exif: facts?.exif, outcome: .failed, now: now, db
        ) { record in
            record.format = (facts?.format ?? format)?.rawValue
            record.width = facts?.width
            record.height = facts?.height
            record.status = EntryStatus.failed.rawValue
            record.failureCode = code
            record.failureMessage = message
        }
    }

    /// Inside a write transaction: the entry's content is deleted, its photo row gets the new bytes' hash,
    /// size, time and `fields`, and `content` (if any) is inserted, or else `exif` alone.
    static func rewrite(
        id: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance?, sha256: String, source: SourceFile, content: ProcessedPhoto?,
        exif: ExifMetadata?, outcome: ReprocessOutcome, now: String, _ db: Database, fields: (inout PhotoRecord) throws -> Void
    ) throws -> ReprocessOutcome {
        guard var record = try Self.unchangedRecord(id: id, expectedSHA256: expectedSHA256, db),
              try expectedGuidance.map({ try record.guidance() == $0 }) ?? true
        else { return .changedMeanwhile }
        if let duplicate = try Self.duplicate(of: record, newSHA256: sha256, db) { return duplicate }
        try Self.deleteContent(of: id, db)
        record.sha256 = sha256
        record.fileSize = source.size
        record.fileMtime = source.modificationTime
        record.updatedAt = now
        record.decoderVersion = PhotoDecoder.decoderVersion
        try fields(&record)
        try record.update(db)
        if let content {
            try Self.insertContent(of: content, id: id, now: now, db)
        } else if let exif {
            try ExifRecord(photoId: id, exif: exif).insert(db)
        }
        return outcome
    }

    /// Records the size and modification time of entry `id`'s source, whose bytes were found unchanged,
    /// so the next run does not hash the file again.
    public func refreshSource(id: Int64, expectedSHA256: String?, source: SourceFile) throws(CatalogError) -> ReprocessOutcome {
        let now = Timestamp.now()
        return try write { db in
            try Self.refreshSource(id: id, expectedSHA256: expectedSHA256, source: source, now: now, db)
        }
    }

    /// ``refreshSource(id:expectedSHA256:source:)`` inside the caller's write transaction.
    static func refreshSource(id: Int64, expectedSHA256: String?, source: SourceFile, now: String, _ db: Database) throws -> ReprocessOutcome {
        guard var record = try Self.unchangedRecord(id: id, expectedSHA256: expectedSHA256, db) else { return .changedMeanwhile }
        record.fileSize = source.size
        record.fileMtime = source.modificationTime
        record.updatedAt = now
        try record.update(db)
        return .sourceRefreshed
    }

    /// Notes that entry `id`'s source now holds the bytes `sha256`, which another entry has: a
    /// placeholder for an unreadable file is removed, any other entry is left as it was.
    public func resolveDuplicate(id: Int64, expectedSHA256: String?, sha256: String) throws(CatalogError) -> ReprocessOutcome {
        try write { db in
            try Self.resolveDuplicate(id: id, expectedSHA256: expectedSHA256, sha256: sha256, db)
        }
    }

    /// ``resolveDuplicate(id:expectedSHA256:sha256:)`` inside the caller's write transaction.
    static func resolveDuplicate(id: Int64, expectedSHA256: String?, sha256: String, _ db: Database) throws -> ReprocessOutcome {
        guard let record = try Self.unchangedRecord(id: id, expectedSHA256: expectedSHA256, db) else { return .changedMeanwhile }
        return try Self.duplicate(of: record, newSHA256: sha256, db) ?? .changedMeanwhile
    }

    // MARK: - Inside a write transaction

    /// The entry, if it still has the hash the caller read it with.
    private static func unchangedRecord(id: Int64, expectedSHA256: String?, _ db: Database) throws -> PhotoRecord? {
        guard let record = try PhotoRecord.fetchOne(db, key: id), record.sha256 == expectedSHA256 else { return nil }
        return record
    }

    /// When other bytes than the entry's are already catalogued elsewhere: the outcome, after removing an
    /// unreadable placeholder. The entry itself is never merged away: packs and scripts keep its id.
    private static func duplicate(of record: PhotoRecord, newSHA256: String, _ db: Database) throws -> ReprocessOutcome? {
        guard newSHA256 != record.sha256, let other = try photo(sha256: newSHA256, db), let otherID = other.id else { return nil }
        if record.sha256 == nil {
            try record.delete(db)
            return .duplicate(of: otherID, removed: true)
        }
        return .duplicate(of: otherID, removed: false)
    }

    /// Deletes what was made from an entry's bytes. Palette rows go first and explicitly, so triggers on
    /// `palette_color` (the colour index) see every row leave.
    private static func deleteContent(of id: Int64, _ db: Database) throws {
        try PaletteColorRecord.filter(PaletteColorRecord.Columns.photoId == id).deleteAll(db)
        try StickerPNGRecord.deleteOne(db, key: id)
        try StickerRecord.deleteOne(db, key: id)
        try ExifRecord.deleteOne(db, key: id)
    }
}
