import Foundation
import GRDB
import Processing

/// One processed photo for ``CatalogRepository/recordProcessed(batch:)``.
public struct ProcessedEntry: Sendable {
    public var photo: ProcessedPhoto
    public var sha256: String
    public var source: SourceFile

    public init(photo: ProcessedPhoto, sha256: String, source: SourceFile) {
        self.photo = photo
        self.sha256 = sha256
        self.source = source
    }
}

extension CatalogRepository {
    /// Records many processed photos in ONE transaction, each exactly as ``recordProcessed(_:sha256:source:)``
    /// would: for bulk loads (benchmarks, migrations from other tools), where a transaction per entry
    /// would spend most of the time committing. All or nothing.
    public func recordProcessed(batch entries: [ProcessedEntry]) throws(CatalogError) -> [ImportOutcome] {
        let now = Timestamp.now()
        return try write { db in
            // A bulk load touches index and R*Tree pages all over the file: a larger page cache for the
            // writer connection (256 MB at most, used only as pages are read) saves re-reading them.
            try db.execute(sql: "PRAGMA cache_size = -262144")
            return try entries.map { entry in
                try Self.insertProcessed(entry.photo, sha256: entry.sha256, source: entry.source, now: now, db)
            }
        }
    }
}
