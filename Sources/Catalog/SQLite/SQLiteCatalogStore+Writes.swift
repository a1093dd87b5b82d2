import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// Records a processed photo: its `photo`, `exif`, `sticker`, `sticker_png` and `palette_color` rows,
    /// in one transaction, so the entry is complete or absent.
    ///
    /// When the SHA-256 is already catalogued (perhaps inserted by another process since the caller
    /// looked: the check is inside the transaction), nothing is inserted and this behaves like
    /// ``noteDuplicate(id:source:)``. A failed "unreadable" entry recorded for the same path is removed:
    /// the file has been read since.
    public func recordProcessed(
        _ photo: ProcessedPhoto, sha256: String, source: SourceFile
    ) throws(CatalogError) -> ImportOutcome {
        let now = Timestamp.now()
        return try StageClock.measure(.commit) { () throws(CatalogError) in
            try write { db in
                try Self.insertProcessed(photo, sha256: sha256, source: source, now: now, db)
            }
        }
    }

    /// ``recordProcessed(_:sha256:source:)`` inside the caller's write transaction (also used by batches).
    static func insertProcessed(
        _ photo: ProcessedPhoto, sha256: String, source: SourceFile, now: String, _ db: Database
    ) throws -> ImportOutcome {
        try Self.removeUnreadableEntry(at: source.path, db)
        if let existing = try Self.photo(sha256: sha256, db) {
            return try Self.refreshSource(of: existing, with: source, now: now, db)
        }
        var record = PhotoRecord(
            sha256: sha256, path: source.path, fileSize: source.size, fileMtime: source.modificationTime,
            format: photo.format.rawValue, width: photo.width, height: photo.height, status: EntryStatus.ok.rawValue,
            importedAt: now, updatedAt: now, clipJson: try ClipWindow.storedJSON(photo.clip)
        )
        try record.insert(db)
        let id = try Self.insertedID(record, db)
        try Self.insertContent(of: photo, id: id, now: now, db)
        return .imported(id: id)
    }

    /// Records a file whose processing failed (status `failed`, with `code` and `message`).
    ///
    /// With a hash: a new failed entry, or, when the SHA-256 is already catalogued, a duplicate as
    /// ``noteDuplicate(id:source:)``. Without a hash (the file could not be read): the entry is keyed by
    /// path (index `photo_unhashed_path`) and updated in place when that path already failed, never duplicated.
    ///
    /// `facts` (when the bytes decoded before the failure: no subject, a failed encode...) are kept:
    /// format, upright size and EXIF, as for a processed photo.
    public func recordFailure(
        sha256: String?, source: SourceFile, format: ImageFormat?, facts: PhotoFacts?, code: String, message: String
    ) throws(CatalogError) -> ImportOutcome {
        let now = Timestamp.now()
        return try write { db in
            try Self.insertFailure(sha256: sha256, source: source, format: format, facts: facts, code: code, message: message, now: now, db)
        }
    }

    /// ``recordFailure(sha256:source:format:facts:code:message:)`` inside the caller's write transaction.
    static func insertFailure(
        sha256: String?, source: SourceFile, format: ImageFormat?, facts: PhotoFacts?, code: String, message: String, now: String,
        _ db: Database
    ) throws -> ImportOutcome {
        if let sha256 {
            try Self.removeUnreadableEntry(at: source.path, db)
            if let existing = try Self.photo(sha256: sha256, db) {
                return try Self.refreshSource(of: existing, with: source, now: now, db)
            }
        } else if var existing = try PhotoRecord
            .filter(PhotoRecord.Columns.sha256 == nil && PhotoRecord.Columns.path == source.path)
            .fetchOne(db)
        {
            existing.fileSize = source.size
            existing.fileMtime = source.modificationTime
            existing.format = format?.rawValue
            existing.decoderVersion = PhotoDecoder.decoderVersion
            existing.failureCode = code
            existing.failureMessage = message
            existing.updatedAt = now
            try existing.update(db)
            return .failed(id: try Self.insertedID(existing, db))
        }
        var record = PhotoRecord(
            sha256: sha256, path: source.path, fileSize: source.size, fileMtime: source.modificationTime,
            format: (facts?.format ?? format)?.rawValue, width: facts?.width, height: facts?.height,
            status: EntryStatus.failed.rawValue, failureCode: code, failureMessage: message, importedAt: now, updatedAt: now
        )
        try record.insert(db)
        let id = try Self.insertedID(record, db)
        if let exif = facts?.exif {
            try ExifRecord(photoId: id, exif: exif).insert(db)
        }
        return .failed(id: id)
    }

    /// Notes that entry `id`'s bytes were seen again at `source`: a different path, size or modification
    /// time is recorded (the path is metadata; identity is the hash). Throws `.entryNotFound` for an unknown id.
    public func noteDuplicate(id: Int64, source: SourceFile) throws(CatalogError) -> ImportOutcome {
        let now = Timestamp.now()
        return try write { db in
            try Self.noteDuplicate(id: id, source: source, now: now, db)
        }
    }

    /// ``noteDuplicate(id:source:)`` inside the caller's write transaction.
    static func noteDuplicate(id: Int64, source: SourceFile, now: String, _ db: Database) throws -> ImportOutcome {
        guard let existing = try PhotoRecord.fetchOne(db, key: id) else {
            throw CatalogError.entryNotFound(id: id)
        }
        if existing.sha256 != nil {
            try Self.removeUnreadableEntry(at: source.path, db)
        }
        return try Self.refreshSource(of: existing, with: source, now: now, db)
    }

    // MARK: - Inside a write transaction

    /// Inserts the `exif`, `sticker`, `sticker_png`, `palette_color`, `similarity` and `animation` rows of entry `id`.
    static func insertContent(of photo: ProcessedPhoto, id: Int64, now: String, _ db: Database) throws {
        if let exif = photo.exif {
            try ExifRecord(photoId: id, exif: exif).insert(db)
        }
        try StickerRecord(
            photoId: id, width: photo.sticker.width, height: photo.sticker.height, bytes: photo.sticker.png.count,
            pipelineVersion: photo.pipelineVersion, settingsJson: try CatalogJSON.string(photo.settings),
            createdAt: now
        ).insert(db)
        try StickerPNGRecord(photoId: id, png: Data(photo.sticker.png)).insert(db)
        for (rank, color) in photo.palette.colors.enumerated() {
            var row = PaletteColorRecord(
                photoId: id, rank: rank, hex: color.hex, l: color.l, a: color.a, b: color.b, share: color.share
            )
            try row.insert(db)
        }
        if let signature = photo.signature {
            try insertSignature(signature, id: id, db)
        }
        if let animation = photo.animation {
            try insertAnimation(animation, id: id, db)
        }
    }

    // Cached statement: this runs for every entry, and compiling it each time cost more than the inserts.
    static func photo(sha256: String, _ db: Database) throws -> PhotoRecord? {
        try PhotoRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM photo WHERE sha256 = ?"), arguments: [sha256])
    }

    /// Records where the bytes of `record` are now; `.duplicate(pathUpdated:)` tells whether the path moved.
    private static func refreshSource(
        of record: PhotoRecord, with source: SourceFile, now: String, _ db: Database
    ) throws -> ImportOutcome {
        let id = try insertedID(record, db)
        let refresh = SourceRefresh.plan(path: record.path, size: record.fileSize, modificationTime: record.fileMtime, seenAt: source)
        if refresh.writes {
            var updated = record
            updated.path = source.path
            updated.fileSize = source.size
            updated.fileMtime = source.modificationTime
            updated.updatedAt = now
            try updated.update(db)
        }
        return .duplicate(id: id, pathUpdated: refresh.pathUpdated)
    }

    /// Deletes the failed entry of an unreadable file at `path`: its bytes have now been read and hashed.
    private static func removeUnreadableEntry(at path: String, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM photo WHERE sha256 IS NULL AND path = ?").execute(arguments: [path])
    }

    /// The id of a fetched or inserted record (GRDB sets it in `didInsert`).
    static func insertedID(_ record: PhotoRecord, _ db: Database) throws -> Int64 {
        guard let id = record.id else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "photo row without id")
        }
        return id
    }
}
