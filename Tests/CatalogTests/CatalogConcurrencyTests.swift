import Foundation
import GRDB
import Synchronization
import Testing

@testable import Catalog

/// Several writers on one file, as several `catalog` processes would be.
@Suite(.timeLimit(.minutes(15))) struct CatalogConcurrencyTests {
    @Test func twoRepositoriesRecordingTheSameBytesMakeOneEntry() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let first = try SQLiteCatalogStore(url: url, access: .readWrite)
            let second = try SQLiteCatalogStore(url: url, access: .readWrite)
            let photo = sampleProcessedPhoto()
            let count = 40

            let outcomes = try await withThrowingTaskGroup(of: ImportOutcome.self) { group in
                for number in 0..<count {
                    for (index, repository) in [first, second].enumerated() {
                        group.addTask {
                            try await repository.recordProcessed(
                                photo, sha256: sha(number), source: source("/\(index)/\(number).jpg"))
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let imported = outcomes.filter { if case .imported = $0 { true } else { false } }
            #expect(imported.count == count)
            #expect(outcomes.count - imported.count == count)
            #expect(try first.entries(.all).count == count)
            #expect(try second.stats().paletteColors == 2 * count)
        }
    }

    @Test func repositoriesCreatingTheSameCatalogAtOnceAllSucceed() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "new/c.sqlite")
            let repositories = try await withThrowingTaskGroup(of: SQLiteCatalogStore.self) { group in
                for _ in 0..<6 {
                    // Each waits for the others' creation; on a loaded machine that is longer than the default wait.
                    group.addTask { try SQLiteCatalogStore(url: url, access: .readWrite, busyTimeout: .seconds(300)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(repositories.count == 6)
            #expect(try repositories[0].stats().migrations == CatalogMigrations.identifiers)
        }
    }

    @Test func aWriteBlockedPastTheBusyTimeoutFailsWithBusy() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "c.sqlite")
            let repository = try SQLiteCatalogStore(url: url, access: .readWrite, busyTimeout: .milliseconds(200))
            _ = try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(1), source: source("/1"))

            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let other = try DatabaseQueue(path: url.path, configuration: configuration)
            try other.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }

            let clock = ContinuousClock()
            let start = clock.now
            let error = await catalogError {
                try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(2), source: source("/2"))
            }
            let waited = clock.now - start
            #expect(error == .busy(path: url.path))
            #expect(error?.errorDescription == "The catalog \(url.path) is busy (locked by another process); retry later.")
            #expect(waited >= .milliseconds(150), "the busy timeout was not applied: \(waited)")

            // Readers are not blocked by the writer lock (WAL).
            #expect(try repository.entries(.all).count == 1)

            try other.inDatabase { db in try db.execute(sql: "ROLLBACK") }
            #expect(try await repository.recordProcessed(sampleProcessedPhoto(), sha256: sha(2), source: source("/2"))
                == .imported(id: 2))
        }
    }

    /// GRDB 7 opens pool write transactions as IMMEDIATE: checked on a pool with the catalog's configuration.
    @Test func writeTransactionsAreImmediate() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = CatalogDatabase.configuration(readonly: false, busyTimeout: .seconds(1))
            let statements = StatementLog()
            configuration.prepareDatabase { db in
                db.trace { statements.append($0.expandedDescription) }
            }
            let pool = try DatabasePool(path: directory.appending(path: "c.sqlite").path, configuration: configuration)
            try await pool.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
            #expect(statements.all.contains("BEGIN IMMEDIATE TRANSACTION"))
            #expect(try await pool.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
        }
    }
}

/// Statements traced by a connection (the trace closure runs on GRDB's queues).
final class StatementLog: Sendable {
    private let statements = Mutex<[String]>([])
    func append(_ statement: String) { statements.withLock { $0.append(statement) } }
    var all: [String] { statements.withLock { $0 } }
}
