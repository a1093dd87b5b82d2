import GRDB

/// `hamming(a, b)`: the number of bits in which two 64-bit integers differ. The near-duplicate lookup
/// (``SimilarityQuery``) filters the entries of its quarter indexes by it, so that only true neighbours
/// are read from the table.
enum HammingFunction {
    /// A new instance of the function, for one connection.
    static func make() -> DatabaseFunction {
        DatabaseFunction("hamming", argumentCount: 2, pure: true) { values in
            guard let first = Int64.fromDatabaseValue(values[0]), let second = Int64.fromDatabaseValue(values[1]) else { return nil }
            return (first ^ second).nonzeroBitCount
        }
    }
}
