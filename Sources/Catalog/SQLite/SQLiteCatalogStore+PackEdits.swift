import GRDB

/// The pack edits the browser needs besides the CLI's: rename, retitle, a whole new order, one item's
/// emoji. Each is one transaction, checked in full before anything changes.
extension SQLiteCatalogStore {
    /// Renames the pack; its items, title and author stay.
    public func renamePack(_ name: String, to newName: String) throws(PackError) -> PackSummary {
        try PackName.validate(newName)
        return try packWrite { db -> Result<PackSummary, PackError> in
            guard var record = try Self.packRecord(named: name, db) else { return .failure(.notFound(name: name)) }
            if newName != name, try Self.packRecord(named: newName, db) != nil { return .failure(.alreadyExists(name: newName)) }
            record.name = newName
            try record.update(db)
            return .success(try Self.summary(of: record, db))
        }
    }

    /// Changes the title and/or the author (nil leaves one as it is).
    public func retitlePack(_ name: String, title: String?, author: String?) throws(PackError) -> PackSummary {
        if let title { try Self.validateText(title, field: "title", allowEmpty: false) }
        if let author { try Self.validateText(author, field: "author", allowEmpty: true) }
        return try packWrite { db -> Result<PackSummary, PackError> in
            guard var record = try Self.packRecord(named: name, db) else { return .failure(.notFound(name: name)) }
            if let title { record.title = title }
            if let author { record.author = author }
            try record.update(db)
            return .success(try Self.summary(of: record, db))
        }
    }

    /// Puts the pack's items in the order of `ids`, which must name every item once.
    public func reorderPack(_ name: String, ids: [Int64]) throws(PackError) {
        try packWrite { db -> Result<Void, PackError> in
            guard let packId = try Self.packRecord(named: name, db)?.id else { return .failure(.notFound(name: name)) }
            let items = try Self.items(packId: packId, db)
            let byId = Dictionary(items.map { ($0.photoId, $0) }, uniquingKeysWith: { first, _ in first })
            let strangers = ids.filter { byId[$0] == nil }
            if !strangers.isEmpty { return .failure(.notInPack(name: name, ids: strangers)) }
            guard ids.count == items.count, Set(ids).count == ids.count else {
                return .failure(.invalidValue(field: "order", reason: "it must list each of the pack's \(items.count) stickers once"))
            }
            try Self.replaceItems(packId: packId, with: ids.compactMap { byId[$0] }, db)
            return .success(())
        }
    }

    /// Sets the emoji of entry `id` in the pack (one to three emoji, as `pack add --emoji` takes).
    public func setPackItemEmoji(_ name: String, id: Int64, emoji: String) throws(PackError) {
        let emojiText = try StickerEmoji.parse(emoji).joined()
        try packWrite { db -> Result<Void, PackError> in
            guard let packId = try Self.packRecord(named: name, db)?.id else { return .failure(.notFound(name: name)) }
            let changed = try PackItemRecord
                .filter(PackItemRecord.Columns.packId == packId && PackItemRecord.Columns.photoId == id)
                .updateAll(db, Column("emoji").set(to: emojiText))
            return changed == 0 ? .failure(.notInPack(name: name, ids: [id])) : .success(())
        }
    }

    static func summary(of record: PackRecord, _ db: Database) throws -> PackSummary {
        let count = try record.id.map { try PackItemRecord.filter(PackItemRecord.Columns.packId == $0).fetchCount(db) } ?? 0
        return PackSummary(name: record.name, title: record.title, author: record.author, count: count, createdAt: record.createdAt)
    }
}
