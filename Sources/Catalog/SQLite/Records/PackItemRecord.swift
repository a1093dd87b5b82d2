import GRDB

/// A row of `pack_item`: one sticker of a pack, at its position, with its emoji.
struct PackItemRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pack_item"

    var packId: Int64
    var photoId: Int64
    var position: Int
    var emoji: String

    enum CodingKeys: String, CodingKey {
        case packId = "pack_id"
        case photoId = "photo_id"
        case position, emoji
    }

    enum Columns {
        static let packId = Column(CodingKeys.packId)
        static let photoId = Column(CodingKeys.photoId)
        static let position = Column(CodingKeys.position)
    }
}
