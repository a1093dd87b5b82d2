import GRDB

extension SQLiteCatalogStore {
    /// The `setting` rows, by key.
    public nonisolated func storedSettingRows() throws(CatalogError) -> [(key: String, value: String)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM setting ORDER BY key").map { (key: $0["key"] as String, value: $0["value"] as String) }
        }
    }

    /// Stores `setting`'s value (already canonical).
    public func store(_ setting: CatalogSetting, value: String) throws(CatalogError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [setting.rawValue, value]
            )
        }
    }
}
