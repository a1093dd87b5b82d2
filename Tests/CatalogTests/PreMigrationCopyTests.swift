import Foundation
import GRDB
import Testing

@testable import Catalog

/// Before migrations change an existing catalog, a consistent copy of it is kept beside it.
@Suite(.timeLimit(.minutes(15))) struct PreMigrationCopyTests {
    /// An older catalog needs at least two migrations in this binary: the first applied, the rest pending.
    static let hasSeveralMigrations = CatalogMigrations.identifiers.count > 1

    @Test(.enabled(if: hasSeveralMigrations, "this binary has a single migration: no older catalog can exist yet"))
    func anOlderCatalogIsCopiedBeforeItIsMigrated() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "catalog.sqlite")
            let first = CatalogMigrations.identifiers[0]
            do {
                let queue = try DatabaseQueue(path: url.path)
                try CatalogMigrations.migrator.migrate(queue, upTo: first)
                try queue.write { db in
                    try db.execute(sql: """
                        INSERT INTO photo (sha256, path, file_size, file_mtime, status, failure_code, failure_message, imported_at, updated_at)
                        VALUES (NULL, '/gone.jpg', 0, 0, 'failed', 'unreadable', 'gone', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')
                        """)
                }
            }
            let repository = try SQLiteCatalogStore(url: url, access: .readWrite)
            let copy = try #require(repository.preMigrationCopy)
            let version = String(first.prefix { $0 != "_" })
            #expect(copy.url.path == url.path + ".pre-" + version)
            #expect(copy.fromVersion == version)
            #expect(copy.appliedMigrations == Array(CatalogMigrations.identifiers.dropFirst()))
            #expect(try repository.stats().migrations == CatalogMigrations.identifiers)

            // The copy is the catalog as it was: the first migration only, the entry there.
            let old = try DatabaseQueue(path: copy.url.path)
            #expect(try old.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") } == [first])
            #expect(try old.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM photo") } == 1)
            #expect(try old.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
            // No temporary file beside it.
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(names.filter { $0.contains(".tmp-") }.isEmpty)

            // Opening the migrated catalog again copies nothing more.
            let again = try SQLiteCatalogStore(url: url, access: .readWrite)
            #expect(again.preMigrationCopy == nil)
        }
    }

    @Test(.enabled(if: hasSeveralMigrations, "this binary has a single migration: no older catalog can exist yet"))
    func processesUpgradingAtOnceKeepTheOlderCatalog() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "catalog.sqlite")
            let first = CatalogMigrations.identifiers[0]
            do {
                let queue = try DatabaseQueue(path: url.path)
                try CatalogMigrations.migrator.migrate(queue, upTo: first)
            }
            let copies = try await withThrowingTaskGroup(of: PreMigrationCopy?.self) { group in
                for _ in 0..<4 {
                    // Each waits for the others' migrations; on a loaded machine that is longer than the default wait.
                    group.addTask { try SQLiteCatalogStore(url: url, access: .readWrite, busyTimeout: .seconds(300)).preMigrationCopy }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(copies.contains { $0 != nil }, "at least the process that migrated kept a copy")
            let copy = try #require(copies.compactMap { $0 }.first)
            // Whoever wrote it last, the copy is of the older catalog, never of a migrated one.
            let old = try DatabaseQueue(path: copy.url.path)
            let applied: [String] = try await old.read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
            #expect(applied == [first])
        }
    }

    @Test func newAndCurrentCatalogsAreNotCopied() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "catalog.sqlite")
            #expect(try SQLiteCatalogStore(url: url, access: .readWrite).preMigrationCopy == nil)
            #expect(try SQLiteCatalogStore(url: url, access: .readWrite).preMigrationCopy == nil)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!names.contains { $0.contains(".pre-") })
        }
    }

    @Test func backupWritesAReadableCatalogAndFailsCleanly() async throws {
        // The same copy as the pre-migration one: a missing destination folder fails and leaves nothing.
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "catalog.sqlite")
            let repository = try SQLiteCatalogStore(url: url, access: .readWrite)
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(1), source: source("/1"))
            let error = await catalogError {
                try repository.backup(to: directory.appending(path: "missing/b.sqlite"), replacing: false)
            }
            #expect(error != nil)
            try repository.backup(to: directory.appending(path: "b.sqlite"), replacing: false)
            let copy = try SQLiteCatalogStore(url: directory.appending(path: "b.sqlite"), access: .readOnly)
            #expect(try copy.entries(.all).count == 1)
        }
    }
}
