/// What recording one file did to the catalog.
public enum ImportOutcome: Sendable, Equatable {
    /// A new entry with its sticker, EXIF and palette.
    case imported(id: Int64)
    /// The same SHA-256 was already catalogued as entry `id`; `pathUpdated` tells whether its
    /// recorded path changed (the file was moved or copied elsewhere). Size and modification time are
    /// refreshed silently when they differ.
    case duplicate(id: Int64, pathUpdated: Bool)
    /// A failed entry was recorded (or, for an unreadable file, updated) as entry `id`.
    case failed(id: Int64)
}
