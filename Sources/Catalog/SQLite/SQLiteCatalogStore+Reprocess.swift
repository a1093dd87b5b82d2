import Foundation
import GRDB
import Processing

extension SQLiteCatalogStore {
    /// Carries out `step` in one write transaction (see ``ReprocessStore/rewrite(_:)``).
    public func rewrite(_ step: ReprocessStep) throws(CatalogError) -> ReprocessOutcome {
        let now = Timestamp.now()
        return try write { db in try Self.rewrite(step, now: now, db) }
    }

    /// ``rewrite(_:)`` inside the caller's write transaction (also a worker's commit): reads the entry and
    /// the entry holding the new bytes, then writes what ``ReprocessStep/plan(found:now:)`` says.
    static func rewrite(_ step: ReprocessStep, now: String, _ db: Database) throws -> ReprocessOutcome {
        let found = try PhotoRecord.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM photo WHERE id = ? OR sha256 = ?"), arguments: [step.entryID, step.newSHA256])
        switch try step.plan(found: found, now: now) {
        case .nothing(let outcome):
            return outcome
        case .deleteEntry(let outcome):
            try PhotoRecord.deleteOne(db, key: step.entryID)
            return outcome
        case .updateEntry(let record, let outcome):
            try record.update(db)
            return outcome
        case .replaceContent(let record, let content, let exif, let outcome):
            try PaletteColorRecord.filter(PaletteColorRecord.Columns.photoId == step.entryID).deleteAll(db)
            try StickerPNGRecord.deleteOne(db, key: step.entryID)
            try StickerRecord.deleteOne(db, key: step.entryID)
            try ExifRecord.deleteOne(db, key: step.entryID)
            try record.update(db)
            if let content {
                try insertContent(of: content, id: step.entryID, now: now, db)
            } else if let exif {
                try ExifRecord(photoId: step.entryID, exif: exif).insert(db)
            }
            return outcome
        }
    }
}
