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
    var l, a, b: Double
    var share: Double

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id
        case photoId = "photo_id"
        case rank, hex, l, a, b, share
    }

    typealias Columns = CodingKeys

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
