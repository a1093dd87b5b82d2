import Foundation
import NIOCore
import PostgresNIO
import Processing

extension PostgresCatalogStore {
    /// Entry `id`'s moving sticker, if it was made from a clip.
    public func animation(id: Int64) async throws(CatalogError) -> AnimatedSticker? {
        try await read { connection in
            try await connection.row("SELECT webp, frame_count, duration_ms FROM animation WHERE photo_id = $1", binds(id))
                .flatMap(Self.animation)
        }
    }

    static func insertAnimation(_ animation: AnimatedSticker, id: Int64, _ connection: PostgresConnection) async throws {
        try await connection.run(
            "INSERT INTO animation (photo_id, webp, frame_count, duration_ms) VALUES ($1, $2, $3, $4)",
            binds(id, ByteBuffer(bytes: animation.webp), animation.frameCount, animation.durationMilliseconds))
    }

    /// The animation of a row with `webp`, `frame_count` and `duration_ms` (nil when they are null: a
    /// left join found none).
    static func animation(_ row: PostgresRandomAccessRow) throws -> AnimatedSticker? {
        guard let webp = try row.value("webp", as: Data?.self), let frames = try row.value("frame_count", as: Int?.self),
            let duration = try row.value("duration_ms", as: Int?.self)
        else { return nil }
        return AnimatedSticker(webp: [UInt8](webp), frameCount: frames, durationMilliseconds: duration)
    }
}
