import Processing

/// The catalog's sticker settings, as `catalog config` reads and writes them.
public protocol SettingsStore: CatalogHandle {
    /// The stored settings as (key, value) rows, in key order: what ``settings()`` reads them from.
    func storedSettingRows() async throws(CatalogError) -> [(key: String, value: String)]
    /// Stores one setting's value (already canonical, see ``CatalogSetting/canonical(_:)``). Entries made
    /// with another value become stale (`settings`); nothing is reprocessed here.
    func store(_ setting: CatalogSetting, value: String) async throws(CatalogError)
}

extension SettingsStore {
    /// The catalog's current settings: the stored rows over the defaults. Keys this binary does not know
    /// (written by a newer one) are ignored; a known key with a value it refuses is an error, since guessing
    /// would silently make stickers with other settings than the user chose.
    public func settings() async throws(CatalogError) -> StickerSettings {
        try CatalogSetting.settings(from: try await storedSettingRows(), catalog: displayName)
    }

    /// The catalog's settings as the user set them (`auto` stays `auto`), checked as ``settings()`` checks them.
    public func settingValues() async throws(CatalogError) -> SettingValues {
        try CatalogSetting.values(from: try await storedSettingRows(), catalog: displayName)
    }
}
