import Foundation
import Processing

/// One pack item as a back end reads it (its row, palette and EXIF), before the pack rules turn
/// it into a ``PackSource/Item``: the back ends do the I/O, ``PackSource/assembled(name:title:author:rows:)`` the rest.
struct PackSourceRow {
    var id: Int64
    /// The stored emoji text (space-separated).
    var emoji: String
    /// nil when the sticker went away (a failed reprocess).
    var png: Data?
    var width, height: Int?
    var settingsJSON: String?
    var palette: Palette
    var source: SourceSummary
    var exif: ExifRecord?
    var animation: AnimatedSticker?
}

extension PackSource {
    /// The pack from its rows in order, or `missingStickers` naming every entry whose sticker went
    /// away: an export names them rather than skipping them silently.
    static func assembled(name: String, title: String, author: String, rows: [PackSourceRow]) throws -> Result<PackSource, PackError> {
        var items: [Item] = []
        var missing: [Int64] = []
        for (index, row) in rows.enumerated() {
            guard let png = row.png, let width = row.width, let height = row.height else {
                missing.append(row.id)
                continue
            }
            var source = row.source
            source.exif = row.exif.map(SourceSummary.ExifSummary.init)
            let fullSize = try row.settingsJSON.map { try CatalogJSON.decode(StickerSettings.self, from: $0).size }
            items.append(Item(
                id: row.id, position: index + 1, emoji: StickerEmoji.split(row.emoji), png: [UInt8](png), width: width,
                height: height, fullSize: fullSize, palette: row.palette, source: source, animation: row.animation))
        }
        if !missing.isEmpty { return .failure(.missingStickers(name: name, ids: missing)) }
        return .success(PackSource(name: name, title: title, author: author, items: items))
    }
}

extension SourceSummary.ExifSummary {
    /// The camera and the moment of a stored `exif` row, without its GPS.
    init(_ record: ExifRecord) {
        self.init(
            make: record.make, model: record.model, lensModel: record.lensModel, takenAt: record.takenAt,
            exposureTime: record.exposureTime, fNumber: record.fNumber, iso: record.iso, focalLength: record.focalLength)
    }
}
