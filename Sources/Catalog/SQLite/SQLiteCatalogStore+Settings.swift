import GRDB
import Processing

extension SQLiteCatalogStore {
    /// The catalog's current settings: the `setting` rows over the defaults. Keys this binary does not
    /// know (written by a newer one) are ignored; a known key with a value it refuses is an error, since
    /// guessing would silently make stickers with other settings than the user chose.
    public nonisolated func settings() throws(CatalogError) -> StickerSettings {
        let rows = try read { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM setting ORDER BY key").map { ($0["key"] as String, $0["value"] as String) }
        }
        var settings = StickerSettings.default
        for (key, value) in rows {
            guard let setting = CatalogSetting(rawValue: key) else { continue }
            do {
                settings = try setting.applying(value, to: settings)
            } catch {
                throw .database(path: path, message: "\(error); fix it with `catalog config set \(key) VALUE`")
            }
        }
        return settings
    }

    /// Stores `setting`'s value (already canonical, see ``CatalogSetting/canonical(_:)``). Entries made
    /// with another value become stale (`settings`); nothing is reprocessed here.
    public func store(_ setting: CatalogSetting, value: String) throws(CatalogError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [setting.rawValue, value]
            )
        }
    }
}
