import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// The pack with everything an export or a preview needs, read in one transaction.
    public nonisolated func packSource(named name: String) throws(PackError) -> PackSource {
        try packRead { db in
            guard let pack = try Self.packRecord(named: name, db), let packId = pack.id else { return .failure(.notFound(name: name)) }
            let rows = try Row.fetchAll(db, sql: """
                SELECT pack_item.photo_id, pack_item.emoji, photo.sha256, photo.format, photo.width AS photo_width,
                       photo.height AS photo_height, sticker.width, sticker.height, sticker.settings_json, sticker_png.png,
                       animation.webp, animation.frame_count, animation.duration_ms
                FROM pack_item JOIN photo ON photo.id = pack_item.photo_id
                LEFT JOIN sticker ON sticker.photo_id = pack_item.photo_id
                LEFT JOIN sticker_png ON sticker_png.photo_id = pack_item.photo_id
                LEFT JOIN animation ON animation.photo_id = pack_item.photo_id
                WHERE pack_item.pack_id = ? ORDER BY pack_item.position
                """, arguments: [packId])
            let items = try rows.map { row in
                let id: Int64 = row["photo_id"]
                let colors = try PaletteColorRecord
                    .filter(PaletteColorRecord.Columns.photoId == id)
                    .order(PaletteColorRecord.Columns.rank)
                    .fetchAll(db)
                return PackSourceRow(
                    id: id, emoji: row["emoji"], png: row["png"], width: row["width"], height: row["height"],
                    settingsJSON: row["settings_json"],
                    palette: Palette(colors: colors.map { PaletteColor(hex: $0.hex, l: $0.l, a: $0.a, b: $0.b, share: $0.share) }),
                    source: SourceSummary(sha256: row["sha256"], format: row["format"], width: row["photo_width"], height: row["photo_height"]),
                    exif: try ExifRecord.fetchOne(db, key: id),
                    animation: (row["webp"] as Data?) == nil ? nil : Self.animation(row))
            }
            return try PackSource.assembled(name: pack.name, title: pack.title, author: pack.author, rows: items)
        }
    }
}
