import Processing

/// A row of `photo`, on every back end: one imported file, identified by the SHA-256 of its bytes
/// (or, for a file that could not be read at all, by its path).
struct PhotoRecord: Codable, Sendable, Equatable {
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
    /// The entry's chosen part of a clip as stored (``ClipWindow`` JSON, migration 0011); nil: the default part.
    var clipJson: String? = nil

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
        case clipJson = "clip_json"
    }

    /// The guidance every cut-out of the entry applies (`.none` when it has none).
    func guidance() throws -> CutoutGuidance {
        try CutoutGuidance(storedJSON: guidanceJson)
    }

    /// The part of a clip every cut-out of the entry takes (nil: the default part).
    func clip() throws -> ClipWindow? {
        try ClipWindow.stored(clipJson)
    }
}
