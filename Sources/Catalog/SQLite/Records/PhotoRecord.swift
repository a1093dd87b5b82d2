import GRDB
import Processing

/// A row of `photo`: one imported file, identified by the SHA-256 of its bytes
/// (or, for a file that could not be read at all, by its path).
struct PhotoRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "photo"

    var id: Int64?
    var sha256: String?
    var path: String
    var fileSize: Int64
    var fileMtime: Double
    var format: String?
    var width: Int?
    var height: Int?
    /// `ok` or `failed` (``EntryStatus``).
    var status: String
    var failureCode: String?
    var failureMessage: String?
    var importedAt: String
    var updatedAt: String
    /// `PhotoDecoder.decoderVersion` of the binary that last examined the bytes (nil: before version 2).
    var decoderVersion: Int? = PhotoDecoder.decoderVersion
    /// The entry's cut-out guidance as stored (``CutoutGuidance`` JSON, migration 0007); nil: none.
    var guidanceJson: String? = nil

    enum CodingKeys: String, CodingKey {
        case id, sha256, path
        case fileSize = "file_size"
        case fileMtime = "file_mtime"
        case format, width, height, status
        case failureCode = "failure_code"
        case failureMessage = "failure_message"
        case importedAt = "imported_at"
        case updatedAt = "updated_at"
        case decoderVersion = "decoder_version"
        case guidanceJson = "guidance_json"
    }

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

    /// The guidance every cut-out of the entry applies (`.none` when it has none).
    func guidance() throws -> CutoutGuidance {
        try CutoutGuidance(storedJSON: guidanceJson)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
