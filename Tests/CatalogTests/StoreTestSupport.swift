import Foundation
import GRDB
import Testing

@testable import Catalog

/// The back ends the repository and workflow suites run against (`@Test(arguments: StoreKind.allCases)`).
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite

    var testDescription: String { rawValue }
}

/// A new, empty catalog of `kind` for one test, opened for `access`. `name` tells apart several
/// catalogs of one test; for SQLite it is a file in `directory` (`NAME.sqlite`).
func openStore(
    _ kind: StoreKind, in directory: URL, name: String = "c", access: CatalogAccess = .readWrite
) async throws -> any CatalogStore {
    switch kind {
    case .sqlite:
        try await CatalogStores.open(.sqlite(directory.appending(path: name + ".sqlite")), access: access)
    }
}

/// Runs one raw SQL statement on a test catalog, to make a state the interface refuses to make (a
/// tampered pack name, a sticker lost since). The SQL must mean the same on every back end; arguments
/// are `String`s and `Int64`s.
func executeRaw(_ sql: String, _ arguments: [any Sendable] = [], on store: any CatalogStore) async throws {
    if let sqlite = store as? SQLiteCatalogStore {
        let values: [(any DatabaseValueConvertible)?] = arguments.map { value in
            switch value {
            case let text as String: text
            case let number as Int64: number
            default: preconditionFailure("executeRaw takes String and Int64 arguments, not \(type(of: value))")
            }
        }
        let statementArguments = StatementArguments(values)
        try await sqlite.write { db in try db.execute(sql: sql, arguments: statementArguments) }
        return
    }
    Issue.record("executeRaw: no raw access to \(type(of: store))")
}
