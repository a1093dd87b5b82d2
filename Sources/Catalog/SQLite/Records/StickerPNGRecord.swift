import Foundation
import GRDB

/// A row of `sticker_png`: a sticker's PNG bytes, apart so scans of sticker metadata stay small.
struct StickerPNGRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sticker_png"

    var photoId: Int64
    var png: Data

    enum CodingKeys: String, CodingKey {
        case photoId = "photo_id"
        case png
    }
}
