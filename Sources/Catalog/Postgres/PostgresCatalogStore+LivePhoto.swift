import PostgresNIO

extension PostgresCatalogStore {
    /// Links a Live Photo's still and clip entries; a link either had before (to another half) goes, so
    /// each entry is half of one pair at most.
    public func linkLivePhoto(still: Int64, clip: Int64) async throws(CatalogError) {
        try await write { connection in
            try await connection.run("DELETE FROM live_photo WHERE still_id IN ($1, $2) OR clip_id IN ($1, $2)", binds(still, clip))
            try await connection.run("INSERT INTO live_photo (still_id, clip_id) VALUES ($1, $2)", binds(still, clip))
        }
    }
}
