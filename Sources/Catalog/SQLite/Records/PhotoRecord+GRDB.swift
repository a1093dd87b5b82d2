import GRDB

/// `photo` rows through GRDB.
extension PhotoRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "photo"

    /// The columns, named as the coding keys name them.
    typealias Columns = CodingKeys

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension PhotoRecord.CodingKeys: ColumnExpression {}
