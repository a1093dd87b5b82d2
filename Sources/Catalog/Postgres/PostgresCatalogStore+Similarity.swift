import PostgresNIO
import Processing

extension PostgresCatalogStore {
    /// Entries near `signature`, through the quarter indexes (``SimilarityQuery``, the same query as SQLite's).
    public func nearDuplicates(
        of signature: SimilaritySignature, within: Int, excluding id: Int64?
    ) async throws(CatalogError) -> [NearDuplicate] {
        let sql = SimilarityQuery.neighbours(of: signature, within: within, distance: .bitCount)
        let candidates = try await read { connection in
            try await connection.rows(sql).map { (try $0.value("photo_id", as: Int64.self), try Self.signature($0)) }
        }
        return SimilarityQuery.nearest(candidates, to: signature, within: within, excluding: id)
    }

    /// Entry `id`'s signature, if it has one.
    public func signature(id: Int64) async throws(CatalogError) -> SimilaritySignature? {
        try await read { connection in
            try await connection.row("SELECT * FROM similarity WHERE photo_id = $1", binds(id)).map(Self.signature)
        }
    }

    /// A page of signed entries in id order.
    public func signedEntries(after id: Int64, limit: Int) async throws(CatalogError) -> [SignedEntry] {
        try await read { connection in
            try await connection.rows("""
                SELECT s.*, p.width, p.height, p.file_size, p.path FROM similarity s JOIN photo p ON p.id = s.photo_id
                WHERE s.photo_id > $1 ORDER BY s.photo_id LIMIT $2
                """, binds(id, Int64(limit))).map { row in
                SignedEntry(
                    id: try row.value("photo_id"), signature: try Self.signature(row),
                    width: Int(try row.value("width", as: Int64?.self) ?? 0), height: Int(try row.value("height", as: Int64?.self) ?? 0),
                    fileSize: try row.value("file_size"), path: try row.value("path"))
            }
        }
    }

    /// Every decision about near-duplicates.
    public func duplicateDecisions() async throws(CatalogError) -> DuplicateDecisions {
        try await read { connection in
            var decisions = DuplicateDecisions()
            for row in try await connection.rows("SELECT first_id, second_id, kind FROM duplicate_decision") {
                if try row.value("kind", as: String.self) == "keep" {
                    decisions.kept.insert(try row.value("first_id"))
                } else {
                    decisions.distinct.insert(EntryPair(try row.value("first_id"), try row.value("second_id")))
                }
            }
            return decisions
        }
    }

    /// Records every pair of `ids` as distinct.
    public func markDistinct(_ ids: [Int64]) async throws(CatalogError) {
        let now = Timestamp.now()
        try await write { connection in
            try await Self.requireEntries(ids, connection)
            for pair in DuplicateDecisions.pairs(of: ids) {
                try await connection.run("""
                    INSERT INTO duplicate_decision (first_id, second_id, kind, decided_at) VALUES ($1, $2, 'distinct', $3)
                    ON CONFLICT DO NOTHING
                    """, binds(pair.first, pair.second, now))
            }
        }
    }

    /// Keeps `id` of `group`: the only kept entry among them.
    public func keep(_ id: Int64, of group: [Int64]) async throws(CatalogError) {
        let now = Timestamp.now()
        try await write { connection in
            try await Self.requireEntries([id] + group, connection)
            try await connection.run(
                "DELETE FROM duplicate_decision WHERE kind = 'keep' AND first_id = ANY($1::bigint[])", binds(Array(Set(group + [id]))))
            try await connection.run(
                "INSERT INTO duplicate_decision (first_id, second_id, kind, decided_at) VALUES ($1, $1, 'keep', $2)", binds(id, now))
        }
    }

    private static func requireEntries(_ ids: [Int64], _ connection: PostgresConnection) async throws {
        for id in Set(ids) where try await connection.row("SELECT 1 FROM photo WHERE id = $1", binds(id)) == nil {
            throw CatalogError.entryNotFound(id: id)
        }
    }

    /// The `similarity` row of entry `id`, inside the caller's write transaction.
    static func insertSignature(_ signature: SimilaritySignature, id: Int64, _ connection: PostgresConnection) async throws {
        try await connection.run("""
            INSERT INTO similarity (photo_id, photo_hash, surroundings_hash, subject_hash, sharpness, color_l, color_a, color_b)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """, binds(id, SimilarityQuery.stored(signature.photo), SimilarityQuery.stored(signature.surroundings),
                       SimilarityQuery.stored(signature.subject), signature.sharpness, signature.color.l, signature.color.a,
                       signature.color.b))
    }

    static func signature(_ row: PostgresRandomAccessRow) throws -> SimilaritySignature {
        SimilaritySignature(
            photo: SimilarityQuery.hash(try row.value("photo_hash")), surroundings: SimilarityQuery.hash(try row.value("surroundings_hash")),
            subject: SimilarityQuery.hash(try row.value("subject_hash")), sharpness: try row.value("sharpness"),
            color: OklabColor(l: try row.value("color_l"), a: try row.value("color_a"), b: try row.value("color_b")))
    }
}
