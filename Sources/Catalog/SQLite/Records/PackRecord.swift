import GRDB

/// A row of `pack`: a named, ordered set of stickers.
struct PackRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "pack"

    var id: Int64?
    var name: String
    var title: String
    var author: String
    var createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, name, title, author
        case createdAt = "created_at"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
