import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// Entry `id`'s moving sticker, if it was made from a clip.
    public nonisolated func animation(id: Int64) throws(CatalogError) -> AnimatedSticker? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM animation WHERE photo_id = ?", arguments: [id]).map(Self.animation)
        }
    }

    static func insertAnimation(_ animation: AnimatedSticker, id: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO animation (photo_id, webp, frame_count, duration_ms) VALUES (?, ?, ?, ?)")
            .execute(arguments: [id, Data(animation.webp), animation.frameCount, animation.durationMilliseconds])
    }

    static func animation(_ row: Row) -> AnimatedSticker {
        AnimatedSticker(webp: [UInt8](row["webp"] as Data), frameCount: row["frame_count"], durationMilliseconds: row["duration_ms"])
    }
}
