import Foundation
import GRDB
import Processing

/// Packs on SQLite: the reads and writes of ``PackStore``, each write one transaction on the actor (the
/// commands and their rules are `Packs/PackStore+Commands.swift`'s).
extension SQLiteCatalogStore {
    /// Inserts an empty pack, unless one has this name.
    public func insertPack(name: String, title: String, author: String, createdAt: String) throws(PackError) -> PackSummary {
        try packWrite { db in
            if try Self.packRecord(named: name, db) != nil { return .failure(.alreadyExists(name: name)) }
            var record = PackRecord(id: nil, name: name, title: title, author: author, createdAt: createdAt)
            try record.insert(db)
            return .success(PackSummary(name: name, title: title, author: author, count: 0, createdAt: createdAt))
        }
    }

    /// Runs `edit` on the pack's items (and the stickers of `ids`) in one transaction; see ``PackStore``.
    public func editPack<T: Sendable>(
        _ name: String, creatingIfMissing: Bool, lookingUp ids: [Int64],
        _ edit: @Sendable (inout PackContents) -> Result<T, PackError>
    ) throws(PackError) -> T {
        try packWrite { db in
            var pack = try Self.packRecord(named: name, db)
            if pack == nil, creatingIfMissing {
                var record = PackRecord(id: nil, name: name, title: name, author: "", createdAt: Timestamp.now())
                try record.insert(db)
                pack = record
            }
            guard let packId = pack?.id else { return .failure(.notFound(name: name)) }
            let members = try Self.items(packId: packId, db).map { PackMember(id: $0.photoId, emoji: $0.emoji) }
            var contents = PackContents(members: members, stickers: try Self.stickerIds(among: ids, db))
            let result = edit(&contents)
            if case .success = result { try Self.replaceItems(packId: packId, with: contents.members, db) }
            return result
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
                       sticker.width, sticker.height, sticker.bytes, animation.photo_id IS NOT NULL AS animated
                FROM pack_item JOIN photo ON photo.id = pack_item.photo_id
                LEFT JOIN sticker ON sticker.photo_id = pack_item.photo_id
                LEFT JOIN animation ON animation.photo_id = pack_item.photo_id
                WHERE pack_item.pack_id = ? ORDER BY pack_item.position
                """, arguments: [packId])
            let items = rows.enumerated().map { index, row in
                PackItem(
                    position: index + 1, id: row["photo_id"], emoji: StickerEmoji.split(row["emoji"]), path: row["path"],
                    width: row["width"] ?? 0, height: row["height"] ?? 0, bytes: row["bytes"] ?? 0, animated: row["animated"]
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
        try Result { () throws(CatalogError) in try write(body) }.mapError(PackError.catalog).get().get()
    }

    /// Runs `body` on a reader connection.
    nonisolated func packRead<T>(_ body: (Database) throws -> Result<T, PackError>) throws(PackError) -> T {
        try Result { () throws(CatalogError) in try read(body) }.mapError(PackError.catalog).get().get()
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
    static func replaceItems(packId: Int64, with members: [PackMember], _ db: Database) throws {
        try PackItemRecord.filter(PackItemRecord.Columns.packId == packId).deleteAll(db)
        for (position, member) in members.enumerated() {
            try PackItemRecord(packId: packId, photoId: member.id, position: position, emoji: member.emoji).insert(db)
        }
    }
}
