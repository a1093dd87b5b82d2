import Processing

/// The one lookup both back ends run for ``SimilarityStore/nearDuplicates(of:within:excluding:)``:
/// multi-index hashing over the four 16-bit quarters of each hash. Two hashes within d bits agree on
/// some quarter up to floor(d / 4) bits (if every quarter differed in more, the whole would differ in
/// more than d), so the candidates are the rows whose quarter is one of those values, each read
/// through its expression index (Migrations/0008_similarity.sql), and the exact distance is checked
/// on them alone. Each quarter index carries the whole hash (Migrations/0009_similarity_covering.sql), so
/// that distance is counted inside the index, and the table is read for the true neighbours only.
public enum SimilarityQuery {
    /// How a back end writes, in SQL, the number of bits in which a hash column differs from a literal.
    public enum BitDistance: Sendable {
        /// SQLite: the `hamming(a, b)` function the catalog registers on each connection.
        case function
        /// PostgreSQL: `bit_count` of the two values' XOR, as a 64-bit string.
        case bitCount

        func sql(_ column: String, _ literal: String) -> String {
            switch self {
            case .function: "hamming(\(column), \(literal))"
            case .bitCount: "bit_count((\(column) # \(literal))::bit(64))"
            }
        }
    }

    /// The three hash columns with the radius each is searched at for `within`.
    static func columns(within: Int) -> [(column: String, radius: Int)] {
        [("photo_hash", min(within, SimilaritySignature.photoLimit)), ("surroundings_hash", within), ("subject_hash", within)]
    }

    /// The SQL expression of quarter `quarter` of `column`, exactly as the index is written.
    static func quarter(_ quarter: Int, of column: String) -> String {
        quarter == 0 ? "(\(column) & 65535)" : "((\(column) >> \(quarter * 16)) & 65535)"
    }

    /// The SELECT of the candidate rows' ids near `signature` (integer literals only: nothing bound).
    static func candidateIDs(near signature: SimilaritySignature, within: Int, distance: BitDistance) -> String {
        let hashes = [signature.photo.bits, signature.surroundings.bits, signature.subject.bits]
        var selects: [String] = []
        for ((column, radius), bits) in zip(columns(within: within), hashes) {
            let near = "\(distance.sql(column, literal(Int64(bitPattern: bits)))) <= \(radius)"
            for quarter in 0..<4 {
                let value = UInt16(truncatingIfNeeded: bits >> UInt64(quarter * 16))
                let values = variants(of: value, flipping: radius / 4).map(String.init).joined(separator: ",")
                selects.append("SELECT photo_id FROM similarity WHERE \(Self.quarter(quarter, of: column)) IN (\(values)) AND \(near)")
            }
        }
        return selects.joined(separator: " UNION ")
    }

    /// The SELECT of the signatures of the entries near `signature` (by at least one hash; ``nearest(_:to:within:excluding:)`` applies the rest).
    public static func neighbours(of signature: SimilaritySignature, within: Int, distance: BitDistance) -> String {
        "SELECT * FROM similarity WHERE photo_id IN (\(candidateIDs(near: signature, within: within, distance: distance)))"
    }

    /// A 64-bit integer as an SQL literal both back ends read as one: the smallest is written as an
    /// expression, since its digits without the sign do not fit.
    static func literal(_ value: Int64) -> String {
        value == .min ? "(-9223372036854775807 - 1)" : String(value)
    }

    /// `value` and every 16-bit value that differs from it in at most `bits` bits.
    static func variants(of value: UInt16, flipping bits: Int) -> [UInt16] {
        var result: [UInt16] = []
        forEachVariant(of: Int(value), bits: 16, flipping: bits) { result.append(UInt16($0)) }
        return result
    }

    /// Calls `body` with `value` and every `bits`-bit value that differs from it in at most `flipping` bits.
    static func forEachVariant(of value: Int, bits: Int, flipping: Int, from: Int = 0, _ body: (Int) -> Void) {
        if from == 0 { body(value) }
        guard flipping > 0 else { return }
        for bit in from..<bits {
            let next = value ^ (1 << bit)
            body(next)
            forEachVariant(of: next, bits: bits, flipping: flipping - 1, from: bit + 1, body)
        }
    }

    /// The stored integer of a hash: the same 64 bits, signed (both back ends keep 64-bit signed integers).
    static func stored(_ hash: PerceptualHash) -> Int64 { Int64(bitPattern: hash.bits) }

    /// The hash of a stored integer.
    static func hash(_ stored: Int64) -> PerceptualHash { PerceptualHash(bits: UInt64(bitPattern: stored)) }

    /// The near-duplicates among `candidates` (id and signature), nearest first then by id.
    static func nearest(
        _ candidates: [(Int64, SimilaritySignature)], to signature: SimilaritySignature, within: Int, excluding: Int64?
    ) -> [NearDuplicate] {
        candidates.compactMap { id, other -> NearDuplicate? in
            guard id != excluding else { return nil }
            let distance = signature.distance(to: other)
            return distance <= within ? NearDuplicate(id: id, distance: distance) : nil
        }.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
    }
}
