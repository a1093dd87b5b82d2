import Foundation
import GRDB
import PostgresNIO
import PostgresTestSupport
import Testing

@testable import Catalog

/// The back ends the repository and workflow suites run against (`@Test(arguments: StoreKind.allCases)`).
/// PostgreSQL is among them when it is installed (Tests/PostgresTestSupport starts a server of the
/// test process's own); PostgresOpenTests says so when it is not.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static var allCases: [StoreKind] {
        TestPostgresServer.isAvailable ? [.sqlite, .postgres] : [.sqlite]
    }

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
    case .postgres:
        try await CatalogStores.open(.postgres(try await TestDatabases.shared.address(for: directory, name: name)), access: access)
    }
}

/// The PostgreSQL database of each (test folder, name): a new migrated one the first time, the same
/// one when a test opens that catalog again.
actor TestDatabases {
    static let shared = TestDatabases()
    private var databases: [String: String] = [:]

    func address(for directory: URL, name: String) async throws -> String {
        let server = try TestPostgresServer.server
        let key = directory.path + "/" + name
        if let database = databases[key] { return server.address(database: database) }
        let database = try await server.makeDatabase()
        databases[key] = database
        return server.address(database: database)
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
    if let postgres = store as? PostgresCatalogStore {
        var bindings = PostgresBindings()
        for value in arguments {
            switch value {
            case let text as String: bindings.append(text)
            case let number as Int64: bindings.append(number)
            default: preconditionFailure("executeRaw takes String and Int64 arguments, not \(type(of: value))")
            }
        }
        // SQLite's `?` placeholders as PostgreSQL's `$1, $2, ...`.
        var numbered = ""
        var count = 0
        for character in sql {
            if character == "?" {
                count += 1
                numbered += "$\(count)"
            } else {
                numbered.append(character)
            }
        }
        let statement = numbered
        let finalBindings = bindings
        try await postgres.write { connection in try await connection.run(statement, finalBindings) }
        return
    }
    Issue.record("executeRaw: no raw access to \(type(of: store))")
}

extension StoreKind {
    /// The back ends that implement `catalog copy` and the work queue: both.
    static var withCopyAndWork: [StoreKind] { allCases }
}
