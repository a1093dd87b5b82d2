import Foundation
import NIOCore
import PostgresNIO
import Processing

extension PostgresCatalogStore {
    /// Records a processed photo (entry, EXIF, sticker, PNG, palette) in one transaction, or, when its
    /// hash is catalogued already (checked inside the transaction), notes it as a duplicate. A failed
    /// "unreadable" entry at the same path is removed: the file has been read since.
    public func recordProcessed(_ photo: ProcessedPhoto, sha256: String, source: SourceFile) async throws(CatalogError) -> ImportOutcome {
        let now = Timestamp.now()
        return try await write { connection in
            try await Self.insertProcessed(photo, sha256: sha256, source: source, now: now, connection)
        }
    }

    /// Records a file whose processing failed, keeping what was learnt of it (`facts`); keyed by hash, or
    /// by path when the file could not be read (updated in place, never duplicated).
    public func recordFailure(
        sha256: String?, source: SourceFile, format: ImageFormat?, facts: PhotoFacts?, code: String, message: String
    ) async throws(CatalogError) -> ImportOutcome {
        let now = Timestamp.now()
        return try await write { connection in
            try await Self.insertFailure(
                sha256: sha256, source: source, format: format, facts: facts, code: code, message: message, now: now, connection)
        }
    }

    /// Notes that entry `id`'s bytes were seen again at `source` (a move is recorded).
    public func noteDuplicate(id: Int64, source: SourceFile) async throws(CatalogError) -> ImportOutcome {
        let now = Timestamp.now()
        return try await write { connection in
            try await Self.noteDuplicate(id: id, source: source, now: now, connection)
        }
    }

    // MARK: - Inside a write transaction

    /// ``noteDuplicate(id:source:)`` inside the caller's write transaction.
    static func noteDuplicate(id: Int64, source: SourceFile, now: String, _ connection: PostgresConnection) async throws -> ImportOutcome {
        guard let existing = try await Self.photo(id: id, connection) else { throw CatalogError.entryNotFound(id: id) }
        if existing.sha256 != nil { try await Self.removeUnreadableEntry(at: source.path, connection) }
        return try await Self.refreshSource(of: existing, with: source, now: now, connection)
    }

    /// ``recordFailure(sha256:source:format:facts:code:message:)`` inside the caller's write transaction.
    static func insertFailure(
        sha256: String?, source: SourceFile, format: ImageFormat?, facts: PhotoFacts?, code: String, message: String, now: String,
        _ connection: PostgresConnection
    ) async throws -> ImportOutcome {
        if let sha256 {
            try await Self.removeUnreadableEntry(at: source.path, connection)
            if let existing = try await Self.photo(sha256: sha256, connection) {
                return try await Self.refreshSource(of: existing, with: source, now: now, connection)
            }
        } else if let existing = try await connection.row(
            "SELECT id FROM photo WHERE sha256 IS NULL AND path = $1", binds(source.path)
        ) {
            let id: Int64 = try existing.value("id")
            try await connection.run("""
                UPDATE photo SET file_size = $2, file_mtime = $3, format = $4, decoder_version = $5,
                    failure_code = $6, failure_message = $7, updated_at = $8
                WHERE id = $1
                """, binds(id, source.size, source.modificationTime, format?.rawValue, PhotoDecoder.decoderVersion, code, message, now))
            return .failed(id: id)
        }
        let record = PhotoRecord(
            sha256: sha256, path: source.path, fileSize: source.size, fileMtime: source.modificationTime,
            format: (facts?.format ?? format)?.rawValue, width: facts?.width, height: facts?.height,
            status: EntryStatus.failed.rawValue, failureCode: code, failureMessage: message, importedAt: now, updatedAt: now
        )
        let id = try await Self.insert(record, connection)
        if let exif = facts?.exif {
            try await Self.insert(try ExifRecord(photoId: id, exif: exif), connection)
        }
        return .failed(id: id)
    }

    /// Records a processed photo in one statement (one round trip, however many rows): the unreadable
    /// entry at its path removed, its hash looked up, and when it is new the entry, EXIF, sticker, PNG
    /// and palette inserted. With `workItem`, that queue row is finished too (done, with the entry's id)
    /// and idle workers are notified at COMMIT. A duplicate's source is refreshed afterwards.
    static func insertProcessed(
        _ photo: ProcessedPhoto, sha256: String, source: SourceFile, now: String, finishing workItem: Int64? = nil,
        _ connection: PostgresConnection
    ) async throws -> ImportOutcome {
        let content = try StickerContentInsert(photo, now: now)
        let next = StickerContentInsert.parameterCount
        var bindings = content.bindings
        for value in [sha256, source.path, source.size, source.modificationTime, photo.format.rawValue, photo.width, photo.height,
                      EntryStatus.ok.rawValue, now, PhotoDecoder.decoderVersion, workItem, try ClipWindow.storedJSON(photo.clip)]
            as [(any PostgresDynamicTypeEncodable)?] {
            if let value { bindings.append(value) } else { bindings.appendNull() }
        }
        let sql = """
            WITH gone AS (
                DELETE FROM photo WHERE sha256 IS NULL AND path = $\(next + 2)
            ), existing AS (
                SELECT id FROM photo WHERE sha256 = $\(next + 1)
            ), entry AS (
                INSERT INTO photo (sha256, path, file_size, file_mtime, format, width, height, status, imported_at, updated_at,
                    decoder_version, clip_json)
                SELECT $\(next + 1), $\(next + 2), $\(next + 3)::bigint, $\(next + 4)::float8, $\(next + 5), $\(next + 6)::bigint,
                    $\(next + 7)::bigint, $\(next + 8), $\(next + 9), $\(next + 9), $\(next + 10)::bigint, $\(next + 12)::text
                WHERE NOT EXISTS (SELECT 1 FROM existing)
                RETURNING id
            ), \(StickerContentInsert.tables(of: "entry")), finished AS (
                UPDATE work_item SET state = 'done', holder = NULL, lease_until = NULL, message = NULL, finished_at = $\(next + 9),
                    result_id = coalesce((SELECT id FROM entry), (SELECT id FROM existing))
                WHERE id = $\(next + 11)::bigint
                RETURNING pg_notify('\(workChannel)', '')
            )
            SELECT (SELECT id FROM entry) AS new_id, (SELECT id FROM existing) AS existing_id, (SELECT count(*) FROM finished) AS finished
            """
        guard let row = try await connection.row(sql, bindings) else {
            throw CatalogError.database(path: "photo", message: "INSERT returned no row")
        }
        if let id = try row.value("new_id", as: Int64?.self) { return .imported(id: id) }
        guard let existingID = try row.value("existing_id", as: Int64?.self), let existing = try await Self.photo(id: existingID, connection) else {
            throw CatalogError.database(path: "photo", message: "INSERT returned neither a new nor an existing id")
        }
        return try await refreshSource(of: existing, with: source, now: now, connection)
    }

    /// Inserts the `exif`, `sticker`, `sticker_png` and `palette_color` rows of entry `id`, in one statement.
    static func insertContent(of photo: ProcessedPhoto, id: Int64, now: String, _ connection: PostgresConnection) async throws {
        let content = try StickerContentInsert(photo, now: now)
        var bindings = content.bindings
        bindings.append(id)
        let sql = """
            WITH entry AS (SELECT $\(StickerContentInsert.parameterCount + 1)::bigint AS id), \(StickerContentInsert.tables(of: "entry"))
            SELECT 1
            """
        try await connection.run(sql, bindings)
    }

    static func insert(_ record: PhotoRecord, _ connection: PostgresConnection) async throws -> Int64 {
        let row = try await connection.row("""
            INSERT INTO photo (sha256, path, file_size, file_mtime, format, width, height, status, failure_code,
                failure_message, imported_at, updated_at, decoder_version)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id
            """, binds(record.sha256, record.path, record.fileSize, record.fileMtime, record.format, record.width, record.height,
                       record.status, record.failureCode, record.failureMessage, record.importedAt, record.updatedAt,
                       record.decoderVersion))
        guard let row else { throw CatalogError.database(path: "photo", message: "INSERT returned no id") }
        return try row.value("id")
    }

    static func insert(_ exif: ExifRecord, _ connection: PostgresConnection) async throws {
        try await connection.run("""
            INSERT INTO exif (photo_id, make, model, lens_model, taken_at, taken_at_utc, exposure_time, f_number, iso,
                focal_length, orientation, gps_latitude, gps_longitude, gps_altitude, tags_json)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
            """, binds(exif.photoId, exif.make, exif.model, exif.lensModel, exif.takenAt, exif.takenAtUtc, exif.exposureTime,
                       exif.fNumber, exif.iso, exif.focalLength, exif.orientation, exif.gpsLatitude, exif.gpsLongitude,
                       exif.gpsAltitude, exif.tagsJson))
    }

    static let photoColumns = """
        id, sha256, path, file_size, file_mtime, format, width, height, status, failure_code, failure_message,
        imported_at, updated_at, decoder_version, guidance_json, clip_json
        """

    static func photo(sha256: String, _ connection: PostgresConnection) async throws -> PhotoRecord? {
        try await connection.row("SELECT \(photoColumns) FROM photo WHERE sha256 = $1", binds(sha256)).map(photoRecord)
    }

    static func photo(id: Int64, _ connection: PostgresConnection) async throws -> PhotoRecord? {
        try await connection.row("SELECT \(photoColumns) FROM photo WHERE id = $1", binds(id)).map(photoRecord)
    }

    static func photoRecord(_ row: PostgresRandomAccessRow) throws -> PhotoRecord {
        PhotoRecord(
            id: try row.value("id"), sha256: try row.value("sha256"), path: try row.value("path"),
            fileSize: try row.value("file_size"), fileMtime: try row.value("file_mtime"), format: try row.value("format"),
            width: try row.value("width"), height: try row.value("height"), status: try row.value("status"),
            failureCode: try row.value("failure_code"), failureMessage: try row.value("failure_message"),
            importedAt: try row.value("imported_at"), updatedAt: try row.value("updated_at"),
            decoderVersion: try row.value("decoder_version"), guidanceJson: try row.value("guidance_json"),
            clipJson: try row.value("clip_json"))
    }

    /// Records where the bytes of `record` are now (a move only when the recorded file is gone).
    private static func refreshSource(
        of record: PhotoRecord, with source: SourceFile, now: String, _ connection: PostgresConnection
    ) async throws -> ImportOutcome {
        guard let id = record.id else { throw CatalogError.database(path: "photo", message: "photo row without id") }
        let refresh = SourceRefresh.plan(path: record.path, size: record.fileSize, modificationTime: record.fileMtime, seenAt: source)
        if refresh.writes {
            try await connection.run(
                "UPDATE photo SET path = $2, file_size = $3, file_mtime = $4, updated_at = $5 WHERE id = $1",
                binds(id, source.path, source.size, source.modificationTime, now))
        }
        return .duplicate(id: id, pathUpdated: refresh.pathUpdated)
    }

    private static func removeUnreadableEntry(at path: String, _ connection: PostgresConnection) async throws {
        try await connection.run("DELETE FROM photo WHERE sha256 IS NULL AND path = $1", binds(path))
    }
}

/// The bindings and SQL that insert a processed photo's content (EXIF, sticker, PNG, palette, signature, animation) in one
/// statement, as data-modifying CTEs: the palette goes in as arrays through `unnest`, the PNG as one binary
/// parameter. The content's parameters are `$1` to `$parameterCount`; the statement adds its own after them.
struct StickerContentInsert {
    static let parameterCount = 39
    var bindings = PostgresBindings()

    init(_ photo: ProcessedPhoto, now: String) throws {
        let exif = try photo.exif.map { try ExifRecord(photoId: 0, exif: $0) }
        let colors = photo.palette.colors
        let values: [(any PostgresDynamicTypeEncodable)?] = [
            exif?.make, exif?.model, exif?.lensModel, exif?.takenAt, exif?.takenAtUtc, exif?.exposureTime, exif?.fNumber, exif?.iso,
            exif?.focalLength, exif?.orientation, exif?.gpsLatitude, exif?.gpsLongitude, exif?.gpsAltitude, exif?.tagsJson, exif != nil,
            photo.sticker.width, photo.sticker.height, photo.sticker.png.count, photo.pipelineVersion, try CatalogJSON.string(photo.settings),
            now, PNGBytes(photo.sticker.png),
            colors.map(\.hex), colors.map(\.l), colors.map(\.a), colors.map(\.b), colors.map(\.share),
            photo.signature.map { SimilarityQuery.stored($0.photo) } ?? 0, photo.signature.map { SimilarityQuery.stored($0.surroundings) } ?? 0,
            photo.signature.map { SimilarityQuery.stored($0.subject) } ?? 0, photo.signature?.sharpness ?? 0, photo.signature != nil,
            photo.signature?.color.l ?? 0, photo.signature?.color.a ?? 0, photo.signature?.color.b ?? 0,
            PNGBytes(photo.animation?.webp ?? []), Int64(photo.animation?.frameCount ?? 1),
            Int64(photo.animation?.durationMilliseconds ?? 1), photo.animation != nil,
        ]
        for value in values {
            if let value { bindings.append(value) } else { bindings.appendNull() }
        }
    }

    /// The CTEs (without `WITH`) that insert the content of the entry whose `id` the relation `entry` holds.
    static func tables(of entry: String) -> String {
        """
        content_exif AS (
                INSERT INTO exif (photo_id, make, model, lens_model, taken_at, taken_at_utc, exposure_time, f_number, iso,
                    focal_length, orientation, gps_latitude, gps_longitude, gps_altitude, tags_json)
                SELECT id, $1::text, $2::text, $3::text, $4::text, $5::text, $6::float8, $7::float8, $8::bigint, $9::float8,
                    $10::bigint, $11::float8, $12::float8, $13::float8, $14::text
                FROM \(entry) WHERE $15::bool
            ), content_sticker AS (
                INSERT INTO sticker (photo_id, width, height, bytes, pipeline_version, settings_json, created_at)
                SELECT id, $16::bigint, $17::bigint, $18::bigint, $19::bigint, $20::text, $21::text FROM \(entry)
                RETURNING photo_id
            ), content_png AS (
                INSERT INTO sticker_png (photo_id, png) SELECT photo_id, $22::bytea FROM content_sticker
            ), content_palette AS (
                INSERT INTO palette_color (photo_id, rank, hex, l, a, b, share)
                SELECT s.photo_id, c.rank - 1, c.hex, c.l, c.a, c.b, c.share
                FROM content_sticker s,
                    unnest($23::text[], $24::float8[], $25::float8[], $26::float8[], $27::float8[]) WITH ORDINALITY AS c(hex, l, a, b, share, rank)
            ), content_similarity AS (
                INSERT INTO similarity (photo_id, photo_hash, surroundings_hash, subject_hash, sharpness, color_l, color_a, color_b)
                SELECT photo_id, $28::bigint, $29::bigint, $30::bigint, $31::float8, $33::float8, $34::float8, $35::float8
                FROM content_sticker WHERE $32::bool
            ), content_animation AS (
                INSERT INTO animation (photo_id, webp, frame_count, duration_ms)
                SELECT photo_id, $36::bytea, $37::integer, $38::integer FROM content_sticker WHERE $39::bool
            )
        """
    }
}

/// A sticker's PNG (or animated WebP) as a `bytea` parameter, written straight from its array into the message (no
/// intermediate buffer: the bytes are copied once on their way to the server).
struct PNGBytes: PostgresNonThrowingEncodable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static var psqlType: PostgresDataType { .bytea }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeBytes(bytes)
    }
}
