import Processing

extension CatalogSetting {
    /// The settings the stored `(key, value)` rows make, over the defaults. Keys this binary does not know
    /// (written by a newer one) are ignored; a known key with a value it refuses is an error, since guessing
    /// would silently make stickers with other settings than the user chose. `catalog` names the catalog in it.
    static func settings(from rows: [(key: String, value: String)], catalog: String) throws(CatalogError) -> StickerSettings {
        var settings = StickerSettings.default
        for (key, value) in rows {
            guard let setting = CatalogSetting(rawValue: key) else { continue }
            do {
                settings = try setting.applying(value, to: settings)
            } catch {
                throw .database(path: catalog, message: "\(error); fix it with `catalog config set \(key) VALUE`")
            }
        }
        return settings
    }
}
