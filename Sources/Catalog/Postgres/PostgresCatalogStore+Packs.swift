import Foundation
import PostgresNIO
import Processing

/// Packs on PostgreSQL: the SQLite store's rules (SQLiteCatalogStore+Packs, +PackEdits), each write one
/// transaction, checked in full before anything changes.
extension PostgresCatalogStore {
    public func createPack(name: String, title: String?, author: String) async throws(PackError) -> PackSummary {
        try PackName.validate(name)
        let title = title ?? name
        try SQLiteCatalogStore.validateText(title, field: "title", allowEmpty: false)
        try SQLiteCatalogStore.validateText(author, field: "author", allowEmpty: true)
        let now = Timestamp.now()
        return try await packWrite { connection in
            if try await Self.packRow(named: name, connection) != nil { return .failure(.alreadyExists(name: name)) }
            try await connection.run(
                "INSERT INTO pack (name, title, author, created_at) VALUES ($1, $2, $3, $4)", binds(name, title, author, now))
            return .success(PackSummary(name: name, title: title, author: author, count: 0, createdAt: now))
        }
    }

    public func addToPack(
        _ name: String, ids: [Int64], emoji: String?, createIfMissing: Bool, skipNonStickers: Bool
    ) async throws(PackError) -> PackAddResult {
        try PackName.validate(name)
        let emojiText = try emoji.map { text throws(PackError) in try StickerEmoji.parse(text).joined() }
        var seen = Set<Int64>()
        let ids = ids.filter { seen.insert($0).inserted }
        return try await packWrite { connection in
            var packId = try await Self.packRow(named: name, connection)?.id
            if packId == nil, createIfMissing {
                packId = try await connection.row(
                    "INSERT INTO pack (name, title, author, created_at) VALUES ($1, $1, '', $2) RETURNING id", binds(name, Timestamp.now())
                )?.value("id")
            }
            guard let packId else { return .failure(.notFound(name: name)) }
            var known: [Int64: Bool] = [:]
            for row in try await connection.rows("""
                SELECT photo.id, sticker.photo_id IS NOT NULL AND photo.status = 'ok' AS usable
                FROM photo LEFT JOIN sticker ON sticker.photo_id = photo.id WHERE photo.id = ANY($1)
                """, binds(ids)) {
                known[try row.value("id")] = try row.value("usable")
            }
            let unknown = ids.filter { known[$0] == nil }
            if !unknown.isEmpty { return .failure(.unknownEntries(ids: unknown)) }
            let failed = ids.filter { known[$0] == false }
            if !failed.isEmpty && !skipNonStickers { return .failure(.notStickers(ids: failed)) }
            var items = try await Self.items(packId: packId, connection)
            let present = Set(items.map(\.photoId))
            var result = PackAddResult(added: [], alreadyPresent: [], skipped: failed)
            for id in ids where known[id] == true {
                if present.contains(id) {
                    result.alreadyPresent.append(id)
                    if let emojiText, let index = items.firstIndex(where: { $0.photoId == id }) { items[index].emoji = emojiText }
                } else {
                    result.added.append(id)
                    items.append(PackItemRecord(packId: packId, photoId: id, position: items.count, emoji: emojiText ?? StickerEmoji.defaultEmoji))
                }
            }
            try await Self.replaceItems(packId: packId, with: items, connection)
            return .success(result)
        }
    }

    public func removeFromPack(_ name: String, ids: [Int64]) async throws(PackError) -> Int {
        try await packWrite { connection in
            guard let packId = try await Self.packRow(named: name, connection)?.id else { return .failure(.notFound(name: name)) }
            let items = try await Self.items(packId: packId, connection)
            let present = Set(items.map(\.photoId))
            let missing = ids.filter { !present.contains($0) }
            if !missing.isEmpty { return .failure(.notInPack(name: name, ids: missing)) }
            let removing = Set(ids)
            try await Self.replaceItems(packId: packId, with: items.filter { !removing.contains($0.photoId) }, connection)
            return .success(removing.count)
        }
    }

    public func movePackItem(_ name: String, id: Int64, to position: Int) async throws(PackError) {
        try await packWrite { connection -> Result<Void, PackError> in
            guard let packId = try await Self.packRow(named: name, connection)?.id else { return .failure(.notFound(name: name)) }
            var items = try await Self.items(packId: packId, connection)
            guard let from = items.firstIndex(where: { $0.photoId == id }) else { return .failure(.notInPack(name: name, ids: [id])) }
            guard (1...items.count).contains(position) else { return .failure(.invalidPosition(position, count: items.count)) }
            let item = items.remove(at: from)
            items.insert(item, at: position - 1)
            try await Self.replaceItems(packId: packId, with: items, connection)
            return .success(())
        }
    }

    public func deletePack(_ name: String) async throws(PackError) {
        try await packWrite { connection -> Result<Void, PackError> in
            guard let packId = try await Self.packRow(named: name, connection)?.id else { return .failure(.notFound(name: name)) }
            try await connection.run("DELETE FROM pack WHERE id = $1", binds(packId))
            return .success(())
        }
    }

    public func renamePack(_ name: String, to newName: String) async throws(PackError) -> PackSummary {
        try PackName.validate(newName)
        return try await packWrite { connection in
            guard let pack = try await Self.packRow(named: name, connection) else { return .failure(.notFound(name: name)) }
            if newName != name, try await Self.packRow(named: newName, connection) != nil { return .failure(.alreadyExists(name: newName)) }
            try await connection.run("UPDATE pack SET name = $2 WHERE id = $1", binds(pack.id, newName))
            return .success(try await Self.summary(packId: pack.id, connection))
        }
    }

    public func retitlePack(_ name: String, title: String?, author: String?) async throws(PackError) -> PackSummary {
        if let title { try SQLiteCatalogStore.validateText(title, field: "title", allowEmpty: false) }
        if let author { try SQLiteCatalogStore.validateText(author, field: "author", allowEmpty: true) }
        return try await packWrite { connection in
            guard let pack = try await Self.packRow(named: name, connection) else { return .failure(.notFound(name: name)) }
            try await connection.run(
                "UPDATE pack SET title = coalesce($2, title), author = coalesce($3, author) WHERE id = $1", binds(pack.id, title, author))
            return .success(try await Self.summary(packId: pack.id, connection))
        }
    }

    public func reorderPack(_ name: String, ids: [Int64]) async throws(PackError) {
        try await packWrite { connection -> Result<Void, PackError> in
            guard let packId = try await Self.packRow(named: name, connection)?.id else { return .failure(.notFound(name: name)) }
            let items = try await Self.items(packId: packId, connection)
            let byId = Dictionary(items.map { ($0.photoId, $0) }, uniquingKeysWith: { first, _ in first })
            let strangers = ids.filter { byId[$0] == nil }
            if !strangers.isEmpty { return .failure(.notInPack(name: name, ids: strangers)) }
            guard ids.count == items.count, Set(ids).count == ids.count else {
                return .failure(.invalidValue(field: "order", reason: "it must list each of the pack's \(items.count) stickers once"))
            }
            try await Self.replaceItems(packId: packId, with: ids.compactMap { byId[$0] }, connection)
            return .success(())
        }
    }

    public func setPackItemEmoji(_ name: String, id: Int64, emoji: String) async throws(PackError) {
        let emojiText = try StickerEmoji.parse(emoji).joined()
        try await packWrite { connection -> Result<Void, PackError> in
            guard let packId = try await Self.packRow(named: name, connection)?.id else { return .failure(.notFound(name: name)) }
            let rows = try await connection.rows(
                "UPDATE pack_item SET emoji = $3 WHERE pack_id = $1 AND photo_id = $2 RETURNING photo_id", binds(packId, id, emojiText))
            return rows.isEmpty ? .failure(.notInPack(name: name, ids: [id])) : .success(())
        }
    }

    public func packs() async throws(PackError) -> [PackSummary] {
        try await packRead { connection in
            .success(try await connection.rows("""
                SELECT pack.name, pack.title, pack.author, pack.created_at, count(pack_item.photo_id) AS n
                FROM pack LEFT JOIN pack_item ON pack_item.pack_id = pack.id
                GROUP BY pack.id ORDER BY pack.name COLLATE "C"
                """).map { row in
                PackSummary(name: try row.value("name"), title: try row.value("title"), author: try row.value("author"),
                            count: try row.value("n"), createdAt: try row.value("created_at"))
            })
        }
    }

    public func pack(named name: String) async throws(PackError) -> PackDetail {
        try await packRead { connection in
            guard let pack = try await Self.packRow(named: name, connection) else { return .failure(.notFound(name: name)) }
            let rows = try await connection.rows("""
                SELECT pack_item.photo_id, pack_item.emoji, photo.path, sticker.width, sticker.height, sticker.bytes
                FROM pack_item JOIN photo ON photo.id = pack_item.photo_id
                LEFT JOIN sticker ON sticker.photo_id = pack_item.photo_id
                WHERE pack_item.pack_id = $1 ORDER BY pack_item.position
                """, binds(pack.id))
            let items = try rows.enumerated().map { index, row in
                PackItem(
                    position: index + 1, id: try row.value("photo_id"), emoji: StickerEmoji.split(try row.value("emoji")),
                    path: try row.value("path"), width: try row.value("width", as: Int?.self) ?? 0,
                    height: try row.value("height", as: Int?.self) ?? 0, bytes: try row.value("bytes", as: Int?.self) ?? 0)
            }
            return .success(PackDetail(name: pack.name, title: pack.title, author: pack.author, createdAt: pack.createdAt, items: items))
        }
    }

    public func entries(inPack name: String) async throws(PackError) -> [EntrySummary] {
        try await packRead { connection in
            guard let pack = try await Self.packRow(named: name, connection) else { return .failure(.notFound(name: name)) }
            return .success(try await connection.rows("""
                SELECT photo.id, photo.sha256, photo.path, photo.status, photo.failure_code, photo.failure_message
                FROM photo JOIN pack_item ON pack_item.photo_id = photo.id
                WHERE pack_item.pack_id = $1 ORDER BY pack_item.position
                """, binds(pack.id)).map { row in
                EntrySummary(
                    id: try row.value("id"), sha256: try row.value("sha256"), path: try row.value("path"),
                    status: EntryStatus(storedValue: try row.value("status")),
                    failureCode: try row.value("failure_code"), failureMessage: try row.value("failure_message"))
            })
        }
    }

    public func packSource(named name: String) async throws(PackError) -> PackSource {
        try await packRead { connection in
            guard let pack = try await Self.packRow(named: name, connection) else { return .failure(.notFound(name: name)) }
            let rows = try await connection.rows("""
                SELECT pack_item.photo_id, pack_item.emoji, photo.sha256, photo.format, photo.width AS photo_width,
                       photo.height AS photo_height, sticker.width, sticker.height, sticker.settings_json, sticker_png.png
                FROM pack_item JOIN photo ON photo.id = pack_item.photo_id
                LEFT JOIN sticker ON sticker.photo_id = pack_item.photo_id
                LEFT JOIN sticker_png ON sticker_png.photo_id = pack_item.photo_id
                WHERE pack_item.pack_id = $1 ORDER BY pack_item.position
                """, binds(pack.id))
            var missing: [Int64] = []
            for row in rows where try row.value("png", as: Data?.self) == nil || row.value("width", as: Int?.self) == nil {
                missing.append(try row.value("photo_id"))
            }
            if !missing.isEmpty { return .failure(.missingStickers(name: name, ids: missing)) }
            var items: [PackSource.Item] = []
            for (index, row) in rows.enumerated() {
                let id: Int64 = try row.value("photo_id")
                let colors = try await connection.rows(
                    "SELECT hex, l, a, b, share FROM palette_color WHERE photo_id = $1 ORDER BY rank", binds(id))
                let exif = try await connection.row("SELECT * FROM exif WHERE photo_id = $1", binds(id)).map(Self.exifRecord)
                items.append(PackSource.Item(
                    id: id, position: index + 1, emoji: StickerEmoji.split(try row.value("emoji")),
                    png: [UInt8](try row.value("png", as: Data.self)),
                    width: try row.value("width"), height: try row.value("height"),
                    fullSize: try CatalogJSON.decode(StickerSettings.self, from: try row.value("settings_json")).size,
                    palette: Palette(colors: try colors.map {
                        PaletteColor(hex: try $0.value("hex"), l: try $0.value("l"), a: try $0.value("a"), b: try $0.value("b"),
                                     share: try $0.value("share"))
                    }),
                    source: SourceSummary(
                        sha256: try row.value("sha256"), format: try row.value("format"), width: try row.value("photo_width"),
                        height: try row.value("photo_height"),
                        exif: exif.map { exif in
                            SourceSummary.ExifSummary(
                                make: exif.make, model: exif.model, lensModel: exif.lensModel, takenAt: exif.takenAt,
                                exposureTime: exif.exposureTime, fNumber: exif.fNumber, iso: exif.iso, focalLength: exif.focalLength)
                        })))
            }
            return .success(PackSource(name: pack.name, title: pack.title, author: pack.author, items: items))
        }
    }

    // MARK: - Internals

    struct PackRow {
        var id: Int64
        var name: String
        var title: String
        var author: String
        var createdAt: String
    }

    func packWrite<T>(_ body: (PostgresConnection) async throws -> Result<T, PackError>) async throws(PackError) -> T {
        let result: Result<T, PackError>
        do {
            result = try await write(body)
        } catch {
            throw .catalog(error)
        }
        return try result.get()
    }

    func packRead<T>(_ body: (PostgresConnection) async throws -> Result<T, PackError>) async throws(PackError) -> T {
        let result: Result<T, PackError>
        do {
            result = try await readTransaction(body)
        } catch {
            throw .catalog(error)
        }
        return try result.get()
    }

    static func packRow(named name: String, _ connection: PostgresConnection) async throws -> PackRow? {
        try await connection.row("SELECT id, name, title, author, created_at FROM pack WHERE name = $1", binds(name)).map { row in
            PackRow(id: try row.value("id"), name: try row.value("name"), title: try row.value("title"),
                    author: try row.value("author"), createdAt: try row.value("created_at"))
        }
    }

    static func items(packId: Int64, _ connection: PostgresConnection) async throws -> [PackItemRecord] {
        try await connection.rows(
            "SELECT photo_id, position, emoji FROM pack_item WHERE pack_id = $1 ORDER BY position", binds(packId)
        ).map { row in
            PackItemRecord(packId: packId, photoId: try row.value("photo_id"), position: try row.value("position"), emoji: try row.value("emoji"))
        }
    }

    /// Rewrites the pack's items with positions 0..<count in the given order.
    static func replaceItems(packId: Int64, with items: [PackItemRecord], _ connection: PostgresConnection) async throws {
        try await connection.run("DELETE FROM pack_item WHERE pack_id = $1", binds(packId))
        for (position, item) in items.enumerated() {
            try await connection.run(
                "INSERT INTO pack_item (pack_id, photo_id, position, emoji) VALUES ($1, $2, $3, $4)",
                binds(packId, item.photoId, position, item.emoji))
        }
    }

    static func summary(packId: Int64, _ connection: PostgresConnection) async throws -> PackSummary {
        guard let row = try await connection.row("""
            SELECT pack.name, pack.title, pack.author, pack.created_at,
                   (SELECT count(*) FROM pack_item WHERE pack_id = pack.id) AS n
            FROM pack WHERE id = $1
            """, binds(packId)) else { throw CatalogError.database(path: "pack", message: "pack \(packId) vanished") }
        return PackSummary(name: try row.value("name"), title: try row.value("title"), author: try row.value("author"),
                           count: try row.value("n"), createdAt: try row.value("created_at"))
    }
}
