import GRDB

/// A row of `palette_color`: one dominant colour of a sticker, `rank` 0 being the largest share.
struct PaletteColorRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "palette_color"

    var id: Int64?
    var photoId: Int64
    var rank: Int
    /// `#rrggbb`.
    var hex: String
    /// Oklab coordinates.
    var l: Double
    var a: Double
    var b: Double
    var share: Double

    enum CodingKeys: String, CodingKey {
        case id
        case photoId = "photo_id"
        case rank, hex, l, a, b, share
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let photoId = Column(CodingKeys.photoId)
        static let rank = Column(CodingKeys.rank)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
