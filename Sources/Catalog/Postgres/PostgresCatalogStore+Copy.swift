import Foundation
import NIOCore
import PostgresNIO

/// `catalog copy` on PostgreSQL: the SQLite store's rules (SQLiteCatalogStore+Copy) in this back end's
/// SQL. Entries keep their ids; the `copy_marker` row (migration 0004) makes a copy resumable and refuses
/// every other one.
extension PostgresCatalogStore {
    public func storedEntries(after id: Int64?, limit: Int) async throws(CatalogError) -> [StoredEntry] {
        try await readTransaction { connection in
            let photos = try await connection.rows(
                "SELECT \(Self.photoColumns) FROM photo WHERE id > $1 ORDER BY id LIMIT $2", binds(id ?? 0, max(1, limit))
            ).map(Self.photoRecord)
            guard let first = photos.first?.id, let last = photos.last?.id else { return [] }
            var exif: [Int64: ExifRecord] = [:]
            for row in try await connection.rows("SELECT * FROM exif WHERE photo_id BETWEEN $1 AND $2", binds(first, last)) {
                let record = try Self.exifRecord(row)
                exif[record.photoId] = record
            }
            var stickers: [Int64: StoredSticker] = [:]
            for row in try await connection.rows("""
                SELECT s.photo_id, s.width, s.height, s.pipeline_version, s.settings_json, s.created_at, g.png,
                    m.photo_hash, m.surroundings_hash, m.subject_hash, m.sharpness, m.color_l, m.color_a, m.color_b,
                    v.webp, v.frame_count, v.duration_ms
                FROM sticker s LEFT JOIN sticker_png g ON g.photo_id = s.photo_id LEFT JOIN similarity m ON m.photo_id = s.photo_id
                    LEFT JOIN animation v ON v.photo_id = s.photo_id
                WHERE s.photo_id BETWEEN $1 AND $2
                """, binds(first, last)) {
                let signed = try row.value("photo_hash", as: Int64?.self) != nil
                stickers[try row.value("photo_id")] = StoredSticker(
                    width: try row.value("width"), height: try row.value("height"), pipelineVersion: try row.value("pipeline_version"),
                    settingsJson: try row.value("settings_json"), createdAt: try row.value("created_at"),
                    png: [UInt8](try row.value("png", as: Data?.self) ?? Data()), signature: signed ? try Self.signature(row) : nil,
                    animation: try Self.animation(row))
            }
            var palettes: [Int64: [StoredColor]] = [:]
            for row in try await connection.rows("""
                SELECT photo_id, rank, hex, l, a, b, share FROM palette_color WHERE photo_id BETWEEN $1 AND $2 ORDER BY photo_id, rank
                """, binds(first, last)) {
                palettes[try row.value("photo_id"), default: []].append(StoredColor(
                    rank: try row.value("rank"), hex: try row.value("hex"), l: try row.value("l"), a: try row.value("a"),
                    b: try row.value("b"), share: try row.value("share")))
            }
            return photos.map { photo in
                let id = photo.id ?? 0
                return StoredEntry(photo, exif: exif[id], sticker: stickers[id], palette: palettes[id] ?? [])
            }
        }
    }

    public func storedRest() async throws(CatalogError) -> StoredCatalogRest {
        try await readTransaction { connection in
            var items: [Int64: [StoredPack.Item]] = [:]
            for row in try await connection.rows("SELECT pack_id, photo_id, position, emoji FROM pack_item ORDER BY pack_id, position") {
                items[try row.value("pack_id"), default: []].append(StoredPack.Item(
                    entryID: try row.value("photo_id"), position: try row.value("position"), emoji: try row.value("emoji")))
            }
            let packs = try await connection.rows("SELECT id, name, title, author, created_at FROM pack ORDER BY name").map { row in
                StoredPack(
                    name: try row.value("name"), title: try row.value("title"), author: try row.value("author"),
                    createdAt: try row.value("created_at"), items: items[try row.value("id")] ?? [])
            }
            var settings: [String: String] = [:]
            for row in try await connection.rows("SELECT key, value FROM setting") {
                settings[try row.value("key")] = try row.value("value")
            }
            let decisions = try await connection.rows(
                "SELECT first_id, second_id, kind, decided_at FROM duplicate_decision ORDER BY first_id, second_id, kind"
            ).map { row in
                StoredDuplicateDecision(
                    firstID: try row.value("first_id"), secondID: try row.value("second_id"), kind: try row.value("kind"),
                    decidedAt: try row.value("decided_at"))
            }
            let livePhotos = try await connection.rows("SELECT still_id, clip_id FROM live_photo ORDER BY still_id").map { row in
                EntryDetail.LivePhoto(stillId: try row.value("still_id"), clipId: try row.value("clip_id"))
            }
            return StoredCatalogRest(packs: packs, settings: settings, duplicateDecisions: decisions, livePhotos: livePhotos)
        }
    }

    public func copyTargetState() async throws(CatalogError) -> CopyTargetState {
        try await readTransaction(Self.copyTargetState)
    }

    public func beginCopy(from source: String) async throws(CatalogError) -> CopyTargetState {
        try await write { connection in
            let state = try await Self.copyTargetState(connection)
            if state == .empty {
                try await connection.run(
                    "INSERT INTO copy_marker (id, source, started_at) VALUES (1, $1, $2)", binds(source, Timestamp.now()))
            }
            return state
        }
    }

    public func writeCopiedEntries(_ entries: [StoredEntry], from source: String) async throws(CatalogError) {
        guard let last = entries.map(\.id).max() else { return }
        let refusal: String? = try await write { connection in
            if let reason = try await Self.refusal(toContinue: source, connection) { return reason }
            let copied = try await connection.row("SELECT last_id FROM copy_marker")?.value("last_id", as: Int64?.self) ?? 0
            if let low = entries.map(\.id).min(), low <= copied {
                return "entry \(low) was copied already (the copy has reached entry \(copied))"
            }
            for entry in entries {
                try await Self.insert(entry, connection)
            }
            // Ids were given, not drawn: new entries must continue after the largest one.
            try await connection.run(
                "SELECT setval(pg_get_serial_sequence('photo', 'id'), (SELECT max(id) FROM photo))")
            try await connection.run("UPDATE copy_marker SET last_id = $1", binds(last))
            return nil
        }
        if let refusal { throw .copyRefused(catalog: displayName, reason: refusal) }
    }

    public func finishCopy(_ rest: StoredCatalogRest, from source: String) async throws(CatalogError) {
        let refusal: String? = try await write { connection in
            if let reason = try await Self.refusal(toContinue: source, connection) { return reason }
            try await connection.run("DELETE FROM pack")
            for pack in rest.packs {
                let row = try await connection.row(
                    "INSERT INTO pack (name, title, author, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
                    binds(pack.name, pack.title, pack.author, pack.createdAt))
                guard let row else { throw CatalogError.database(path: "pack", message: "INSERT returned no id") }
                let packID: Int64 = try row.value("id")
                for item in pack.items {
                    try await connection.run(
                        "INSERT INTO pack_item (pack_id, photo_id, position, emoji) VALUES ($1, $2, $3, $4)",
                        binds(packID, item.entryID, item.position, item.emoji))
                }
            }
            try await connection.run("DELETE FROM duplicate_decision")
            for decision in rest.duplicateDecisions {
                try await connection.run(
                    "INSERT INTO duplicate_decision (first_id, second_id, kind, decided_at) VALUES ($1, $2, $3, $4)",
                    binds(decision.firstID, decision.secondID, decision.kind, decision.decidedAt))
            }
            try await connection.run("DELETE FROM live_photo")
            for link in rest.livePhotos {
                try await connection.run("INSERT INTO live_photo (still_id, clip_id) VALUES ($1, $2)", binds(link.stillId, link.clipId))
            }
            try await connection.run("DELETE FROM setting")
            for (key, value) in rest.settings.sorted(by: { $0.key < $1.key }) {
                try await connection.run("INSERT INTO setting (key, value) VALUES ($1, $2)", binds(key, value))
            }
            try await connection.run("UPDATE copy_marker SET completed_at = $1", binds(Timestamp.now()))
            return nil
        }
        if let refusal { throw .copyRefused(catalog: displayName, reason: refusal) }
    }

    // MARK: - Inside a transaction

    private static func copyTargetState(_ connection: PostgresConnection) async throws -> CopyTargetState {
        if let marker = try await connection.row("SELECT source, last_id, completed_at FROM copy_marker") {
            let source: String = try marker.value("source")
            return try marker.value("completed_at", as: String?.self) == nil
                ? .incompleteCopy(source: source, lastID: try marker.value("last_id")) : .completeCopy(source: source)
        }
        let counts = try await connection.row("""
            SELECT (SELECT count(*) FROM photo) AS entries, (SELECT count(*) FROM pack) AS packs,
                   (SELECT count(*) FROM setting) + (SELECT count(*) FROM work_item) AS others
            """)
        let entries = try counts?.value("entries", as: Int.self) ?? 0
        let packs = try counts?.value("packs", as: Int.self) ?? 0
        let others = try counts?.value("others", as: Int.self) ?? 0
        return entries + packs + others == 0 ? .empty : .notEmpty(entries: entries, packs: packs)
    }

    /// Why a copy from `source` may not write here now; nil when the catalog is an incomplete copy of it.
    private static func refusal(toContinue source: String, _ connection: PostgresConnection) async throws -> String? {
        switch try await copyTargetState(connection) {
        case .incompleteCopy(let other, _) where other == source: nil
        case .incompleteCopy(let other, _): "it is an incomplete copy of another catalog (\(other))"
        case .completeCopy(let other): "it is already a complete copy of \(other)"
        case .empty: "no copy was started in it"
        case .notEmpty(let entries, let packs): "it holds \(Counted.entries(entries)) and \(Counted(packs, "pack")) of its own"
        }
    }

    /// Inserts one entry with its id; the generated `oklab` column keeps the colour index current.
    private static func insert(_ entry: StoredEntry, _ connection: PostgresConnection) async throws {
        try await connection.run("""
            INSERT INTO photo (id, sha256, path, file_size, file_mtime, format, width, height, status, failure_code,
                failure_message, imported_at, updated_at, decoder_version, guidance_json,
                clip_json)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
            """, binds(entry.id, entry.sha256, entry.path, entry.fileSize, entry.fileMtime, entry.format, entry.width, entry.height,
                       entry.status, entry.failureCode, entry.failureMessage, entry.importedAt, entry.updatedAt, entry.decoderVersion,
                       entry.guidanceJson, entry.clipJson))
        if var exif = entry.exif {
            exif.photoId = entry.id
            try await insert(exif, connection)
        }
        if let sticker = entry.sticker {
            try await connection.run("""
                INSERT INTO sticker (photo_id, width, height, bytes, pipeline_version, settings_json, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """, binds(entry.id, sticker.width, sticker.height, sticker.png.count, sticker.pipelineVersion, sticker.settingsJson,
                           sticker.createdAt))
            try await connection.run(
                "INSERT INTO sticker_png (photo_id, png) VALUES ($1, $2)", binds(entry.id, ByteBuffer(bytes: sticker.png)))
            if let signature = sticker.signature {
                try await insertSignature(signature, id: entry.id, connection)
            }
            if let animation = sticker.animation {
                try await insertAnimation(animation, id: entry.id, connection)
            }
        }
        for color in entry.palette {
            try await connection.run("""
                INSERT INTO palette_color (photo_id, rank, hex, l, a, b, share) VALUES ($1, $2, $3, $4, $5, $6, $7)
                """, binds(entry.id, color.rank, color.hex, color.l, color.a, color.b, color.share))
        }
    }
}
