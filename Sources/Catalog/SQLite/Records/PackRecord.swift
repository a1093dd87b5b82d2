import GRDB

/// A row of `pack`: a named, ordered set of stickers.
struct PackRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "pack"

    var id: Int64?
    var name, title, author: String
    var createdAt: String

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, name, title, author
        case createdAt = "created_at"
    }

    typealias Columns = CodingKeys

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
