import GRDB

/// `photo` rows through GRDB.
extension PhotoRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "photo"

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let sha256 = Column(CodingKeys.sha256)
        static let path = Column(CodingKeys.path)
        static let fileSize = Column(CodingKeys.fileSize)
        static let fileMtime = Column(CodingKeys.fileMtime)
        static let format = Column(CodingKeys.format)
        static let status = Column(CodingKeys.status)
        static let failureCode = Column(CodingKeys.failureCode)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
