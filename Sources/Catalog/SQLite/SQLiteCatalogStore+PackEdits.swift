import GRDB

/// The pack edits besides items: a new name, title or author, in one transaction.
extension SQLiteCatalogStore {
    /// Changes the pack's name, title or author (nil leaves one as it is); see ``PackStore``.
    public func updatePack(_ name: String, newName: String?, title: String?, author: String?) throws(PackError) -> PackSummary {
        try packWrite { db -> Result<PackSummary, PackError> in
            guard var record = try Self.packRecord(named: name, db) else { return .failure(.notFound(name: name)) }
            if let newName, newName != name, try Self.packRecord(named: newName, db) != nil {
                return .failure(.alreadyExists(name: newName))
            }
            if let newName { record.name = newName }
            if let title { record.title = title }
            if let author { record.author = author }
            try record.update(db)
            let count = try record.id.map { try PackItemRecord.filter(PackItemRecord.Columns.packId == $0).fetchCount(db) } ?? 0
            return .success(PackSummary(name: record.name, title: record.title, author: record.author, count: count, createdAt: record.createdAt))
        }
    }
}
