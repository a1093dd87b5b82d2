import GRDB

extension SQLiteCatalogStore {
    /// Links a Live Photo's still and clip entries; a link either had before (to another half) goes, so
    /// each entry is half of one pair at most.
    public func linkLivePhoto(still: Int64, clip: Int64) throws(CatalogError) {
        try write { db in
            try db.execute(
                sql: "DELETE FROM live_photo WHERE still_id IN (?, ?) OR clip_id IN (?, ?)", arguments: [still, clip, still, clip])
            try db.execute(sql: "INSERT INTO live_photo (still_id, clip_id) VALUES (?, ?)", arguments: [still, clip])
        }
    }
}
