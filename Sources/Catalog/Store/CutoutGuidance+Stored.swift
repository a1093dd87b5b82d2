import Processing

/// Guidance as both back ends store it in `photo.guidance_json`: sorted-keys JSON text, and NULL for none,
/// so an entry without guidance reads the same whichever way it was cleared.
extension CutoutGuidance {
    /// The stored text; nil for no guidance.
    func storedJSON() throws -> String? {
        isEmpty ? nil : try CatalogJSON.string(self)
    }

    /// The guidance stored as `text` (nil: none).
    init(storedJSON text: String?) throws {
        self = try text.map { try CatalogJSON.decode(CutoutGuidance.self, from: $0) } ?? CutoutGuidance.none
    }
}
