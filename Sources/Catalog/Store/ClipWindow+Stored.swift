import Processing

/// An entry's part of a clip as both back ends store it in `photo.clip_json`: sorted-keys JSON text, and
/// NULL for the default part, so an entry that never chose one and one set back to the default read the same.
extension ClipWindow {
    /// The stored text for `clip`; nil for none or the default.
    static func storedJSON(_ clip: ClipWindow?) throws -> String? {
        guard let clip, clip != .default else { return nil }
        return try CatalogJSON.string(clip)
    }

    /// The part stored as `text`; nil (the default part) for NULL.
    static func stored(_ text: String?) throws -> ClipWindow? {
        try text.map { try CatalogJSON.decode(ClipWindow.self, from: $0) }
    }
}
