import GRDB
import Processing

extension SQLiteCatalogStore {
    /// Entries near `signature`, through the quarter indexes (``SimilarityQuery``).
    public nonisolated func nearDuplicates(
        of signature: SimilaritySignature, within: Int, excluding id: Int64?
    ) throws(CatalogError) -> [NearDuplicate] {
        let sql = SimilarityQuery.neighbours(of: signature, within: within, distance: .function)
        let candidates = try read { db in try Row.fetchAll(db, sql: sql).map { (($0["photo_id"] as Int64), Self.signature($0)) } }
        return SimilarityQuery.nearest(candidates, to: signature, within: within, excluding: id)
    }

    /// Entry `id`'s signature, if it has one.
    public nonisolated func signature(id: Int64) throws(CatalogError) -> SimilaritySignature? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM similarity WHERE photo_id = ?", arguments: [id]).map(Self.signature) }
    }

    /// A page of signed entries in id order.
    public nonisolated func signedEntries(after id: Int64, limit: Int) throws(CatalogError) -> [SignedEntry] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.*, p.width, p.height, p.file_size, p.path FROM similarity s JOIN photo p ON p.id = s.photo_id
                WHERE s.photo_id > ? ORDER BY s.photo_id LIMIT ?
                """, arguments: [id, limit]).map { row in
                SignedEntry(id: row["photo_id"], signature: Self.signature(row), width: row["width"] ?? 0, height: row["height"] ?? 0,
                            fileSize: row["file_size"], path: row["path"])
            }
        }
    }

    /// Every decision about near-duplicates.
    public nonisolated func duplicateDecisions() throws(CatalogError) -> DuplicateDecisions {
        try read { db in
            var decisions = DuplicateDecisions()
            for row in try Row.fetchAll(db, sql: "SELECT first_id, second_id, kind FROM duplicate_decision") {
                if (row["kind"] as String) == "keep" {
                    decisions.kept.insert(row["first_id"])
                } else {
                    decisions.distinct.insert(EntryPair(row["first_id"], row["second_id"]))
                }
            }
            return decisions
        }
    }

    /// Records every pair of `ids` as distinct.
    public func markDistinct(_ ids: [Int64]) throws(CatalogError) {
        let now = Timestamp.now()
        try write { db in
            try Self.requireEntries(ids, db)
            for pair in DuplicateDecisions.pairs(of: ids) {
                try db.execute(sql: """
                    INSERT INTO duplicate_decision (first_id, second_id, kind, decided_at) VALUES (?, ?, 'distinct', ?)
                    ON CONFLICT DO NOTHING
                    """, arguments: [pair.first, pair.second, now])
            }
        }
    }

    /// Keeps `id` of `group`: the only kept entry among them.
    public func keep(_ id: Int64, of group: [Int64]) throws(CatalogError) {
        let now = Timestamp.now()
        try write { db in
            try Self.requireEntries([id] + group, db)
            for other in Set(group + [id]) {
                try db.execute(sql: "DELETE FROM duplicate_decision WHERE kind = 'keep' AND first_id = ?", arguments: [other])
            }
            try db.execute(
                sql: "INSERT INTO duplicate_decision (first_id, second_id, kind, decided_at) VALUES (?, ?, 'keep', ?)",
                arguments: [id, id, now])
        }
    }

    private static func requireEntries(_ ids: [Int64], _ db: Database) throws {
        for id in Set(ids) where try Int.fetchOne(db, sql: "SELECT 1 FROM photo WHERE id = ?", arguments: [id]) == nil {
            throw CatalogError.entryNotFound(id: id)
        }
    }

    /// The `similarity` row of entry `id`, inside the caller's write transaction.
    static func insertSignature(_ signature: SimilaritySignature, id: Int64, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO similarity (photo_id, photo_hash, surroundings_hash, subject_hash, sharpness, color_l, color_a, color_b)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [id, SimilarityQuery.stored(signature.photo), SimilarityQuery.stored(signature.surroundings),
                             SimilarityQuery.stored(signature.subject), signature.sharpness, signature.color.l, signature.color.a,
                             signature.color.b])
    }

    static func signature(_ row: Row) -> SimilaritySignature {
        SimilaritySignature(
            photo: SimilarityQuery.hash(row["photo_hash"]), surroundings: SimilarityQuery.hash(row["surroundings_hash"]),
            subject: SimilarityQuery.hash(row["subject_hash"]), sharpness: row["sharpness"],
            color: OklabColor(l: row["color_l"], a: row["color_a"], b: row["color_b"]))
    }
}
