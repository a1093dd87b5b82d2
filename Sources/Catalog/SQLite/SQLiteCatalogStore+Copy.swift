import Foundation
import GRDB
import Processing

/// `catalog copy` on SQLite: complete entries read in id order, written back with their ids, and the
/// `copy_marker` row (migration 0004) that makes a copy resumable and refuses every other one.
extension SQLiteCatalogStore {
    public nonisolated func storedEntries(after id: Int64?, limit: Int) throws(CatalogError) -> [StoredEntry] {
        try read { db in
            let photos = try PhotoRecord.fetchAll(
                db, sql: "SELECT * FROM photo WHERE id > ? ORDER BY id LIMIT ?", arguments: [id ?? 0, max(1, limit)])
            guard let first = photos.first?.id, let last = photos.last?.id else { return [] }
            let range: StatementArguments = [first, last]
            let exif = Dictionary(
                uniqueKeysWithValues: try ExifRecord.fetchAll(db, sql: "SELECT * FROM exif WHERE photo_id BETWEEN ? AND ?", arguments: range)
                    .map { ($0.photoId, $0) })
            let stickers = Dictionary(
                uniqueKeysWithValues: try StickerRecord.fetchAll(db, sql: "SELECT * FROM sticker WHERE photo_id BETWEEN ? AND ?", arguments: range)
                    .map { ($0.photoId, $0) })
            let pngs = Dictionary(
                uniqueKeysWithValues: try StickerPNGRecord.fetchAll(
                    db, sql: "SELECT * FROM sticker_png WHERE photo_id BETWEEN ? AND ?", arguments: range
                ).map { ($0.photoId, $0.png) })
            let palettes = Dictionary(
                grouping: try PaletteColorRecord.fetchAll(
                    db, sql: "SELECT * FROM palette_color WHERE photo_id BETWEEN ? AND ? ORDER BY photo_id, rank", arguments: range),
                by: \.photoId)
            let signatures = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT * FROM similarity WHERE photo_id BETWEEN ? AND ?", arguments: range)
                    .map { (($0["photo_id"] as Int64), Self.signature($0)) })
            let animations = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT * FROM animation WHERE photo_id BETWEEN ? AND ?", arguments: range)
                    .map { (($0["photo_id"] as Int64), Self.animation($0)) })
            return photos.map { photo in
                let id = photo.id ?? 0
                return StoredEntry(
                    photo,
                    exif: exif[id],
                    sticker: stickers[id].map { StoredSticker($0, png: pngs[id].map { [UInt8]($0) } ?? [], signature: signatures[id], animation: animations[id]) },
                    palette: (palettes[id] ?? []).map(StoredColor.init))
            }
        }
    }

    public nonisolated func storedRest() throws(CatalogError) -> StoredCatalogRest {
        try read { db in
            let items = Dictionary(grouping: try PackItemRecord.fetchAll(db, sql: "SELECT * FROM pack_item ORDER BY pack_id, position"), by: \.packId)
            let packs = try PackRecord.fetchAll(db, sql: "SELECT * FROM pack ORDER BY name").map { pack in
                StoredPack(
                    name: pack.name, title: pack.title, author: pack.author, createdAt: pack.createdAt,
                    items: (items[pack.id ?? 0] ?? []).map { StoredPack.Item(entryID: $0.photoId, position: $0.position, emoji: $0.emoji) })
            }
            // Values are text by contract, but an outside write can leave a BLOB: read as text,
            // it cannot stop a copy or a verify.
            let settings = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, CAST(value AS TEXT) AS value FROM setting")
                    .map { ($0["key"] as String, $0["value"] as String) })
            let decisions = try Row.fetchAll(
                db, sql: "SELECT * FROM duplicate_decision ORDER BY first_id, second_id, kind"
            ).map { StoredDuplicateDecision(firstID: $0["first_id"], secondID: $0["second_id"], kind: $0["kind"], decidedAt: $0["decided_at"]) }
            let livePhotos = try Row.fetchAll(db, sql: "SELECT still_id, clip_id FROM live_photo ORDER BY still_id")
                .map { EntryDetail.LivePhoto(stillId: $0["still_id"], clipId: $0["clip_id"]) }
            return StoredCatalogRest(packs: packs, settings: settings, duplicateDecisions: decisions, livePhotos: livePhotos)
        }
    }

    public nonisolated func copyTargetState() throws(CatalogError) -> CopyTargetState {
        try read(Self.copyTargetState)
    }

    public func beginCopy(from source: String) throws(CatalogError) -> CopyTargetState {
        try write { db in
            let state = try Self.copyTargetState(db)
            if state == .empty {
                try db.execute(
                    sql: "INSERT INTO copy_marker (id, source, started_at) VALUES (1, ?, ?)", arguments: [source, Timestamp.now()])
            }
            return state
        }
    }

    public func writeCopiedEntries(_ entries: [StoredEntry], from source: String) throws(CatalogError) {
        guard let last = entries.map(\.id).max() else { return }
        let refusal: String? = try write { db in
            if let reason = try Self.refusal(toContinue: source, db) { return reason }
            let copied = try Int64.fetchOne(db, sql: "SELECT last_id FROM copy_marker") ?? 0
            if let low = entries.map(\.id).min(), low <= copied {
                return "entry \(low) was copied already (the copy has reached entry \(copied))"
            }
            for entry in entries {
                try Self.insert(entry, db)
            }
            try db.execute(sql: "UPDATE copy_marker SET last_id = ?", arguments: [last])
            return nil
        }
        if let refusal { throw .copyRefused(catalog: displayName, reason: refusal) }
    }

    public func finishCopy(_ rest: StoredCatalogRest, from source: String) throws(CatalogError) {
        let refusal: String? = try write { db in
            if let reason = try Self.refusal(toContinue: source, db) { return reason }
            try db.execute(sql: "DELETE FROM pack")
            for pack in rest.packs {
                var record = PackRecord(id: nil, name: pack.name, title: pack.title, author: pack.author, createdAt: pack.createdAt)
                try record.insert(db)
                for item in pack.items {
                    try PackItemRecord(packId: record.id ?? 0, photoId: item.entryID, position: item.position, emoji: item.emoji).insert(db)
                }
            }
            try db.execute(sql: "DELETE FROM duplicate_decision")
            for decision in rest.duplicateDecisions {
                try db.execute(
                    sql: "INSERT INTO duplicate_decision (first_id, second_id, kind, decided_at) VALUES (?, ?, ?, ?)",
                    arguments: [decision.firstID, decision.secondID, decision.kind, decision.decidedAt])
            }
            try db.execute(sql: "DELETE FROM live_photo")
            for link in rest.livePhotos {
                try db.execute(sql: "INSERT INTO live_photo (still_id, clip_id) VALUES (?, ?)", arguments: [link.stillId, link.clipId])
            }
            try db.execute(sql: "DELETE FROM setting")
            for (key, value) in rest.settings.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
            }
            try db.execute(sql: "UPDATE copy_marker SET completed_at = ?", arguments: [Timestamp.now()])
            return nil
        }
        if let refusal { throw .copyRefused(catalog: displayName, reason: refusal) }
    }

    // MARK: - Inside a transaction

    private static func copyTargetState(_ db: Database) throws -> CopyTargetState {
        if let marker = try Row.fetchOne(db, sql: "SELECT source, last_id, completed_at FROM copy_marker") {
            let source: String = marker["source"]
            return (marker["completed_at"] as String?) == nil
                ? .incompleteCopy(source: source, lastID: marker["last_id"]) : .completeCopy(source: source)
        }
        let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0
        let packs = try Int.fetchOne(db, sql: "SELECT count(*) FROM pack") ?? 0
        let others = try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM setting) + (SELECT count(*) FROM work_item)") ?? 0
        return entries + packs + others == 0 ? .empty : .notEmpty(entries: entries, packs: packs)
    }

    /// Why a copy from `source` may not write here now; nil when the catalog is an incomplete copy of it.
    private static func refusal(toContinue source: String, _ db: Database) throws -> String? {
        switch try copyTargetState(db) {
        case .incompleteCopy(let other, _) where other == source: nil
        case .incompleteCopy(let other, _): "it is an incomplete copy of another catalog (\(other))"
        case .completeCopy(let other): "it is already a complete copy of \(other)"
        case .empty: "no copy was started in it"
        case .notEmpty(let entries, let packs): "it holds \(Counted.entries(entries)) and \(Counted(packs, "pack")) of its own"
        }
    }

    private static func insert(_ entry: StoredEntry, _ db: Database) throws {
        var photo = PhotoRecord(
            id: entry.id, sha256: entry.sha256, path: entry.path, fileSize: entry.fileSize, fileMtime: entry.fileMtime,
            format: entry.format, width: entry.width, height: entry.height, status: entry.status, failureCode: entry.failureCode,
            failureMessage: entry.failureMessage, importedAt: entry.importedAt, updatedAt: entry.updatedAt,
            decoderVersion: entry.decoderVersion, guidanceJson: entry.guidanceJson, clipJson: entry.clipJson)
        try photo.insert(db)
        if var exif = entry.exif {
            exif.photoId = entry.id
            try exif.insert(db)
        }
        if let sticker = entry.sticker {
            try StickerRecord(
                photoId: entry.id, width: sticker.width, height: sticker.height, bytes: sticker.png.count,
                pipelineVersion: sticker.pipelineVersion, settingsJson: sticker.settingsJson, createdAt: sticker.createdAt
            ).insert(db)
            try StickerPNGRecord(photoId: entry.id, png: Data(sticker.png)).insert(db)
            if let signature = sticker.signature {
                try insertSignature(signature, id: entry.id, db)
            }
            if let animation = sticker.animation {
                try insertAnimation(animation, id: entry.id, db)
            }
        }
        for color in entry.palette {
            var row = PaletteColorRecord(
                photoId: entry.id, rank: color.rank, hex: color.hex, l: color.l, a: color.a, b: color.b, share: color.share)
            try row.insert(db)
        }
    }
}

extension StoredEntry {
    init(_ photo: PhotoRecord, exif: ExifRecord?, sticker: StoredSticker?, palette: [StoredColor]) {
        self.init(
            id: photo.id ?? 0, sha256: photo.sha256, path: photo.path, fileSize: photo.fileSize, fileMtime: photo.fileMtime,
            format: photo.format, width: photo.width, height: photo.height, status: photo.status, failureCode: photo.failureCode,
            failureMessage: photo.failureMessage, importedAt: photo.importedAt, updatedAt: photo.updatedAt,
            decoderVersion: photo.decoderVersion, exif: exif, sticker: sticker, palette: palette, guidanceJson: photo.guidanceJson,
            clipJson: photo.clipJson)
    }
}

extension StoredSticker {
    init(_ record: StickerRecord, png: [UInt8], signature: SimilaritySignature?, animation: AnimatedSticker?) {
        self.init(
            width: record.width, height: record.height, pipelineVersion: record.pipelineVersion, settingsJson: record.settingsJson,
            createdAt: record.createdAt, png: png, signature: signature, animation: animation)
    }
}

extension StoredColor {
    init(_ record: PaletteColorRecord) {
        self.init(rank: record.rank, hex: record.hex, l: record.l, a: record.a, b: record.b, share: record.share)
    }
}
