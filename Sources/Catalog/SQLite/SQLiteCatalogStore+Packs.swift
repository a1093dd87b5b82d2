import Foundation
import GRDB
import Processing

/// Packs: named, ordered lists of stickers, each with its emoji. Every write is one transaction on
/// the actor, checked in full before anything changes, so a refused command leaves the pack as it was.
extension SQLiteCatalogStore {
    /// Longest title and author accepted (WhatsApp's limit for both, the largest of the platforms').
    public static let maxPackTextLength = 128

    /// Creates an empty pack. The title defaults to the name.
    public func createPack(name: String, title: String?, author: String) throws(PackError) -> PackSummary {
        try PackName.validate(name)
        let title = title ?? name
        try Self.validateText(title, field: "title", allowEmpty: false)
        try Self.validateText(author, field: "author", allowEmpty: true)
        return try packWrite { db in
            if try Self.packRecord(named: name, db) != nil { return .failure(.alreadyExists(name: name)) }
            var record = PackRecord(id: nil, name: name, title: title, author: author, createdAt: Timestamp.now())
            try record.insert(db)
            return .success(PackSummary(name: name, title: title, author: author, count: 0, createdAt: record.createdAt))
        }
    }

    /// Appends entries to the pack, in the order given (repeated ids count once). Ids already in the
    /// pack stay where they are (their emoji changes when `emoji` is given). Unknown ids, and
    /// entries without a sticker, refuse the whole call — unless `skipNonStickers`, which leaves
    /// failed entries out (for `import --pack`). `createIfMissing` makes the pack first.
    public func addToPack(
        _ name: String, ids: [Int64], emoji: String?, createIfMissing: Bool, skipNonStickers: Bool
    ) throws(PackError) -> PackAddResult {
        try PackName.validate(name)
        let emojiText = try emoji.map { text throws(PackError) in try StickerEmoji.parse(text).joined() }
        var seen = Set<Int64>()
        let ids = ids.filter { seen.insert($0).inserted }
        return try packWrite { db in
            var pack = try Self.packRecord(named: name, db)
            if pack == nil, createIfMissing {
                var record = PackRecord(id: nil, name: name, title: name, author: "", createdAt: Timestamp.now())
                try record.insert(db)
                pack = record
            }
            guard let pack, let packId = pack.id else { return .failure(.notFound(name: name)) }
            let known = try Self.stickerIds(among: ids, db)
            let unknown = ids.filter { known[$0] == nil }
            if !unknown.isEmpty { return .failure(.unknownEntries(ids: unknown)) }
            let failed = ids.filter { known[$0] == false }
            if !failed.isEmpty && !skipNonStickers { return .failure(.notStickers(ids: failed)) }

            var items = try Self.items(packId: packId, db)
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
            try Self.replaceItems(packId: packId, with: items, db)
            return .success(result)
        }
    }

    /// Removes entries from the pack; the others close up, keeping their order. Returns how many
    /// were removed. Ids not in the pack refuse the call.
    @discardableResult
    public func removeFromPack(_ name: String, ids: [Int64]) throws(PackError) -> Int {
        try packWrite { db in
            guard let packId = try Self.packRecord(named: name, db)?.id else { return .failure(.notFound(name: name)) }
            let items = try Self.items(packId: packId, db)
            let present = Set(items.map(\.photoId))
            let missing = ids.filter { !present.contains($0) }
            if !missing.isEmpty { return .failure(.notInPack(name: name, ids: missing)) }
            let removing = Set(ids)
            try Self.replaceItems(packId: packId, with: items.filter { !removing.contains($0.photoId) }, db)
            return .success(removing.count)
        }
    }

    /// Moves entry `id` to 1-based `position`; the others shift to make room.
    public func movePackItem(_ name: String, id: Int64, to position: Int) throws(PackError) {
        try packWrite { db -> Result<Void, PackError> in
            guard let packId = try Self.packRecord(named: name, db)?.id else { return .failure(.notFound(name: name)) }
            var items = try Self.items(packId: packId, db)
            guard let from = items.firstIndex(where: { $0.photoId == id }) else {
                return .failure(.notInPack(name: name, ids: [id]))
            }
            guard (1...items.count).contains(position) else { return .failure(.invalidPosition(position, count: items.count)) }
            let item = items.remove(at: from)
            items.insert(item, at: position - 1)
            try Self.replaceItems(packId: packId, with: items, db)
            return .success(())
        }
    }

    /// Deletes the pack (its stickers stay in the catalog).
    public func deletePack(_ name: String) throws(PackError) {
        try packWrite { db -> Result<Void, PackError> in
            guard let record = try Self.packRecord(named: name, db) else { return .failure(.notFound(name: name)) }
            _ = try record.delete(db)
            return .success(())
        }
    }

    /// Every pack, by name.
    public nonisolated func packs() throws(PackError) -> [PackSummary] {
        try packRead { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT pack.name, pack.title, pack.author, pack.created_at, count(pack_item.photo_id) AS n
                FROM pack LEFT JOIN pack_item ON pack_item.pack_id = pack.id
                GROUP BY pack.id ORDER BY pack.name
                """)
            return .success(rows.map { row in
                PackSummary(name: row["name"], title: row["title"], author: row["author"], count: row["n"], createdAt: row["created_at"])
            })
        }
    }

    /// The pack and its stickers in order.
    public nonisolated func pack(named name: String) throws(PackError) -> PackDetail {
        try packRead { db in
            guard let pack = try Self.packRecord(named: name, db), let packId = pack.id else { return .failure(.notFound(name: name)) }
            let rows = try Row.fetchAll(db, sql: """
                SELECT pack_item.position, pack_item.photo_id, pack_item.emoji, photo.path,
                       sticker.width, sticker.height, sticker.bytes
                FROM pack_item JOIN photo ON photo.id = pack_item.photo_id
                LEFT JOIN sticker ON sticker.photo_id = pack_item.photo_id
                WHERE pack_item.pack_id = ? ORDER BY pack_item.position
                """, arguments: [packId])
            let items = rows.enumerated().map { index, row in
                PackItem(
                    position: index + 1, id: row["photo_id"], emoji: StickerEmoji.split(row["emoji"]), path: row["path"],
                    width: row["width"] ?? 0, height: row["height"] ?? 0, bytes: row["bytes"] ?? 0
                )
            }
            return .success(PackDetail(name: pack.name, title: pack.title, author: pack.author, createdAt: pack.createdAt, items: items))
        }
    }

    /// The entries of the pack, in pack order (for `catalog list --pack`).
    public nonisolated func entries(inPack name: String) throws(PackError) -> [EntrySummary] {
        try packRead { db in
            guard let packId = try Self.packRecord(named: name, db)?.id else { return .failure(.notFound(name: name)) }
            let records = try PhotoRecord.fetchAll(db, sql: """
                SELECT photo.* FROM photo JOIN pack_item ON pack_item.photo_id = photo.id
                WHERE pack_item.pack_id = ? ORDER BY pack_item.position
                """, arguments: [packId])
            return .success(records.compactMap { record in
                record.id.map { id in
                    EntrySummary(
                        id: id, sha256: record.sha256, path: record.path, status: EntryStatus(storedValue: record.status),
                        failureCode: record.failureCode, failureMessage: record.failureMessage
                    )
                }
            })
        }
    }

    // MARK: - Internals

    /// Runs `body` in one write transaction; a `.failure` is returned before anything was written.
    func packWrite<T>(_ body: (Database) throws -> Result<T, PackError>) throws(PackError) -> T {
        let result: Result<T, PackError>
        do {
            result = try write(body)
        } catch {
            throw .catalog(error)
        }
        return try result.get()
    }

    nonisolated func packRead<T>(_ body: (Database) throws -> Result<T, PackError>) throws(PackError) -> T {
        let result: Result<T, PackError>
        do {
            result = try read(body)
        } catch {
            throw .catalog(error)
        }
        return try result.get()
    }

    static func packRecord(named name: String, _ db: Database) throws -> PackRecord? {
        try PackRecord.filter(PackRecord.Columns.name == name).fetchOne(db)
    }

    static func items(packId: Int64, _ db: Database) throws -> [PackItemRecord] {
        try PackItemRecord.filter(PackItemRecord.Columns.packId == packId).order(PackItemRecord.Columns.position).fetchAll(db)
    }

    /// For each id that is an entry: true when it has a sticker, false when not.
    static func stickerIds(among ids: [Int64], _ db: Database) throws -> [Int64: Bool] {
        var found: [Int64: Bool] = [:]
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let rows = try Row.fetchAll(db, sql: """
                SELECT photo.id, sticker.photo_id IS NOT NULL AND photo.status = 'ok' AS usable
                FROM photo LEFT JOIN sticker ON sticker.photo_id = photo.id
                WHERE photo.id IN (\(chunk.map { _ in "?" }.joined(separator: ",")))
                """, arguments: StatementArguments(chunk))
            for row in rows { found[row["id"]] = row["usable"] }
        }
        return found
    }

    /// Rewrites the pack's items with positions 0..<count in the given order. Deleting and
    /// re-inserting keeps `UNIQUE (pack_id, position)` satisfied at every statement.
    static func replaceItems(packId: Int64, with items: [PackItemRecord], _ db: Database) throws {
        try PackItemRecord.filter(PackItemRecord.Columns.packId == packId).deleteAll(db)
        for (position, var item) in items.enumerated() {
            item.position = position
            try item.insert(db)
        }
    }

    static func validateText(_ text: String, field: String, allowEmpty: Bool) throws(PackError) {
        if text.isEmpty && !allowEmpty { throw .invalidValue(field: field, reason: "it is empty") }
        if text.count > maxPackTextLength {
            throw .invalidValue(field: field, reason: "it is \(text.count) characters long, the limit is \(maxPackTextLength)")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidValue(field: field, reason: "it contains a control character (a line break, a tab or NUL)")
        }
    }
}
