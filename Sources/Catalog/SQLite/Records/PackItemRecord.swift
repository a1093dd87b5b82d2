import GRDB

/// A row of `pack_item`: one sticker of a pack, at its position, with its emoji.
struct PackItemRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pack_item"

    var packId, photoId: Int64
    var position: Int
    var emoji: String

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case packId = "pack_id"
        case photoId = "photo_id"
        case position, emoji
    }

    typealias Columns = CodingKeys
}
