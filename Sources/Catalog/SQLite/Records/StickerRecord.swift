import GRDB

/// A row of `sticker`: the metadata of the sticker made from a photo (its PNG is in `sticker_png`).
struct StickerRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sticker"

    var photoId: Int64
    var width, height: Int
    /// Size of the PNG in bytes.
    var bytes: Int
    var pipelineVersion: Int
    /// ``StickerSettings`` as sorted-keys JSON.
    var settingsJson: String
    var createdAt: String

    enum CodingKeys: String, CodingKey {
        case photoId = "photo_id"
        case width, height, bytes
        case pipelineVersion = "pipeline_version"
        case settingsJson = "settings_json"
        case createdAt = "created_at"
    }
}
