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
            // An entry whose sticker went away (a failed reprocess) is named, never silently skipped.
            let missing = rows.filter { ($0["png"] as Data?) == nil || ($0["width"] as Int?) == nil }.map { $0["photo_id"] as Int64 }
            if !missing.isEmpty { return .failure(.missingStickers(name: name, ids: missing)) }
            var items: [PackSource.Item] = []
            for (index, row) in rows.enumerated() {
                let id: Int64 = row["photo_id"]
                let colors = try PaletteColorRecord
                    .filter(PaletteColorRecord.Columns.photoId == id)
                    .order(PaletteColorRecord.Columns.rank)
                    .fetchAll(db)
                let exif = try ExifRecord.fetchOne(db, key: id)
                let png = [UInt8](row["png"] as Data)
                items.append(PackSource.Item(
                    id: id, position: index + 1, emoji: StickerEmoji.split(row["emoji"]), png: png,
                    width: row["width"], height: row["height"],
                    fullSize: try CatalogJSON.decode(StickerSettings.self, from: row["settings_json"]).size,
                    palette: Palette(colors: colors.map { PaletteColor(hex: $0.hex, l: $0.l, a: $0.a, b: $0.b, share: $0.share) }),
                    source: SourceSummary(
                        sha256: row["sha256"], format: row["format"], width: row["photo_width"], height: row["photo_height"],
                        exif: exif.map { exif in
                            SourceSummary.ExifSummary(
                                make: exif.make, model: exif.model, lensModel: exif.lensModel, takenAt: exif.takenAt,
                                exposureTime: exif.exposureTime, fNumber: exif.fNumber, iso: exif.iso, focalLength: exif.focalLength
                            )
                        }
                    ),
                    animation: (row["webp"] as Data?) == nil ? nil : Self.animation(row)
                ))
            }
            return .success(PackSource(name: pack.name, title: pack.title, author: pack.author, items: items))
        }
    }
}
