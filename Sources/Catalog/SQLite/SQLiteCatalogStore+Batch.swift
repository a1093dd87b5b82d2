import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// Records many processed photos in ONE transaction, each exactly as ``recordProcessed(_:sha256:source:)``
    /// would: for bulk loads (benchmarks, migrations from other tools), where a transaction per entry
    /// would spend most of the time committing. All or nothing.
    public func recordProcessed(batch entries: [ProcessedEntry]) throws(CatalogError) -> [ImportOutcome] {
        let now = Timestamp.now()
        return try write { db in
            // A bulk load touches index and R*Tree pages all over the file: a larger page cache for the
            // writer connection (256 MB at most, used only as pages are read) saves re-reading them.
            try db.execute(sql: "PRAGMA cache_size = -262144")
            var inserter = try BatchInserter(db: db, now: now)
            return try entries.map { try inserter.insert($0) }
        }
    }
}

/// The rows of new entries, through statements prepared once per batch with their values bound
/// directly: GRDB's record inserts (Codable encoding of each record, 8 per sticker) cost more than
/// SQLite's own work. The same rows as ``SQLiteCatalogStore/insertProcessed(_:sha256:source:now:_:)``;
/// entries already catalogued (or replacing an unreadable one) go through that path.
private struct BatchInserter {
    let db: Database
    let now: String
    let insertPhoto: Statement
    let insertExif: Statement
    let insertSticker: Statement
    let insertPNG: Statement
    let insertColor: Statement
    let insertSignature: Statement
    let findUnreadable: Statement
    /// The last settings' JSON: a batch nearly always has one settings value.
    var settings: (value: StickerSettings, json: String)?

    init(db: Database, now: String) throws {
        self.db = db
        self.now = now
        insertPhoto = try db.cachedStatement(sql: """
            INSERT INTO photo (sha256, path, file_size, file_mtime, format, width, height, status, imported_at, updated_at, decoder_version,
                clip_json)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertExif = try db.cachedStatement(sql: """
            INSERT INTO exif (photo_id, make, model, lens_model, taken_at, taken_at_utc, exposure_time, f_number, iso,
                focal_length, orientation, gps_latitude, gps_longitude, gps_altitude, tags_json)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertSticker = try db.cachedStatement(sql: """
            INSERT INTO sticker (photo_id, width, height, bytes, pipeline_version, settings_json, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        insertPNG = try db.cachedStatement(sql: "INSERT INTO sticker_png (photo_id, png) VALUES (?, ?)")
        insertColor = try db.cachedStatement(sql: """
            INSERT INTO palette_color (photo_id, rank, hex, l, a, b, share) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        insertSignature = try db.cachedStatement(sql: """
            INSERT INTO similarity (photo_id, photo_hash, surroundings_hash, subject_hash, sharpness, color_l, color_a, color_b)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        findUnreadable = try db.cachedStatement(sql: "SELECT 1 FROM photo WHERE sha256 IS NULL AND path = ?")
    }

    mutating func insert(_ entry: ProcessedEntry) throws -> ImportOutcome {
        let photo = entry.photo
        let source = entry.source
        if try SQLiteCatalogStore.photo(sha256: entry.sha256, db) != nil || Bool.fetchOne(findUnreadable, arguments: [source.path]) == true {
            return try SQLiteCatalogStore.insertProcessed(photo, sha256: entry.sha256, source: source, now: now, db)
        }
        insertPhoto.setUncheckedArguments([
            entry.sha256, source.path, source.size, source.modificationTime, photo.format.rawValue,
            photo.width, photo.height, EntryStatus.ok.rawValue, now, now, PhotoDecoder.decoderVersion, try ClipWindow.storedJSON(photo.clip),
        ])
        try insertPhoto.execute()
        let id = db.lastInsertedRowID
        if let exif = photo.exif {
            let record = try ExifRecord(photoId: id, exif: exif)
            insertExif.setUncheckedArguments([
                id, record.make, record.model, record.lensModel, record.takenAt, record.takenAtUtc, record.exposureTime,
                record.fNumber, record.iso, record.focalLength, record.orientation, record.gpsLatitude,
                record.gpsLongitude, record.gpsAltitude, record.tagsJson,
            ])
            try insertExif.execute()
        }
        if settings?.value != photo.settings {
            settings = (photo.settings, try CatalogJSON.string(photo.settings))
        }
        insertSticker.setUncheckedArguments([
            id, photo.sticker.width, photo.sticker.height, photo.sticker.png.count, photo.pipelineVersion,
            settings?.json, now,
        ])
        try insertSticker.execute()
        insertPNG.setUncheckedArguments([id, Data(photo.sticker.png)])
        try insertPNG.execute()
        for (rank, color) in photo.palette.colors.enumerated() {
            insertColor.setUncheckedArguments([id, rank, color.hex, color.l, color.a, color.b, color.share])
            try insertColor.execute()
        }
        if let signature = photo.signature {
            insertSignature.setUncheckedArguments([
                id, SimilarityQuery.stored(signature.photo), SimilarityQuery.stored(signature.surroundings),
                SimilarityQuery.stored(signature.subject), signature.sharpness, signature.color.l, signature.color.a, signature.color.b,
            ])
            try insertSignature.execute()
        }
        if let animation = photo.animation {
            try SQLiteCatalogStore.insertAnimation(animation, id: id, db)
        }
        return .imported(id: id)
    }
}
