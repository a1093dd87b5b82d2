import Foundation

/// The PostgreSQL catalog's schema history: the SQL files of `Migrations/PostgreSQL/`, embedded in the
/// binary at build time, with the same identifiers (version numbers) as the SQLite ones, so `stats`
/// shows one schema version whichever back end holds the catalog.
enum PostgresMigrations {
    /// (identifier, SQL) in order.
    static var all: [(identifier: String, sql: String)] { EmbeddedPostgresMigrations.all }

    /// The identifiers this binary knows, in order.
    static var identifiers: [String] { all.map(\.identifier) }

    /// The statements of a migration file, one by one: postgres-nio sends each query as one prepared
    /// statement, which holds one command. Splits at `;` outside quotes, comments and dollar-quoted bodies.
    static func statements(in sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var index = sql.startIndex
        func peek(_ offset: Int) -> Character? {
            sql.index(index, offsetBy: offset, limitedBy: sql.endIndex).flatMap { $0 < sql.endIndex ? sql[$0] : nil }
        }
        func take(until terminator: String) {
            // Copies through the next `terminator` (inclusive), or to the end.
            if let range = sql[index...].range(of: terminator) {
                current += sql[index..<range.upperBound]
                index = range.upperBound
            } else {
                current += sql[index...]
                index = sql.endIndex
            }
        }
        while index < sql.endIndex {
            let character = sql[index]
            if character == "-", peek(1) == "-" {
                // A line comment: dropped (it may hold a ';').
                if let newline = sql[index...].firstIndex(of: "\n") { index = newline } else { index = sql.endIndex }
            } else if character == "/", peek(1) == "*" {
                take(until: "*/")
            } else if character == "'" || character == "\"" {
                current.append(character)
                index = sql.index(after: index)
                take(until: String(character))
            } else if character == "$", let tagEnd = sql[sql.index(after: index)...].firstIndex(of: "$"),
                      sql[sql.index(after: index)..<tagEnd].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                let tag = String(sql[index...tagEnd])
                current += tag
                index = sql.index(after: tagEnd)
                take(until: tag)
            } else if character == ";" {
                let statement = current.trimmingCharacters(in: .whitespacesAndNewlines)
                if !statement.isEmpty { statements.append(statement) }
                current = ""
                index = sql.index(after: index)
            } else {
                current.append(character)
                index = sql.index(after: index)
            }
        }
        let last = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !last.isEmpty { statements.append(last) }
        return statements
    }
}
