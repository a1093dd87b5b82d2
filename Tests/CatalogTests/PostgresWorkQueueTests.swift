import Foundation
import PostgresTestSupport
import Testing

@testable import Catalog

/// The work queue's PostgreSQL specifics, with two stores (two workers) on one database: claims never
/// wait for a commit in progress nor take each other's rows, and `NOTIFY` wakes a waiting worker.
@Suite(.enabled(if: TestPostgresServer.isAvailable, "PostgreSQL is not installed (make test installs it)"), .timeLimit(.minutes(15)))
struct PostgresWorkQueueTests {
    private func files(_ range: ClosedRange<Int>) -> [SourceFile] {
        range.map { SourceFile(path: "/photos/\($0).jpg", size: 10, modificationTime: 100) }
    }

    private func twoWorkers(in directory: URL) async throws -> (PostgresCatalogStore, PostgresCatalogStore) {
        let first = try #require(try await openStore(.postgres, in: directory) as? PostgresCatalogStore)
        let second = try #require(try await openStore(.postgres, in: directory) as? PostgresCatalogStore)
        return (first, second)
    }

    @Test func claimsNeitherWaitForACommitNorOverlap() async throws {
        try await withTemporaryDirectory { directory in
            let (a, b) = try await twoWorkers(in: directory)
            #expect(try await a.enqueue(files(1...10)).added == 10)
            // A holds the catalog's write lock (a long commit); B still claims at once.
            let (entered, enteredSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            let commit = Task {
                try await a.write { _ in
                    enteredSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in entered { break }
            let claimed = try await b.claimWork(limit: 4, holder: "b:2", lease: .seconds(60))
            releaseSignal.finish()
            try await commit.value
            let others = try await a.claimWork(limit: 10, holder: "a:1", lease: .seconds(60))
            #expect(claimed.map(\.id) == [1, 2, 3, 4])
            #expect(others.map(\.id) == Array(5...10))
            #expect(try await a.renewLeases(claimed, holder: "a:1", lease: .seconds(60)) == claimed.map(\.id))
            #expect(try await b.renewLeases(claimed, holder: "b:2", lease: .seconds(60)).isEmpty)
            await a.close()
            await b.close()
        }
    }

    @Test func anEnqueueWakesAWaitingWorker() async throws {
        try await withTemporaryDirectory { directory in
            let (a, b) = try await twoWorkers(in: directory)
            // The first wait returns once B listens (whatever came before may have been missed).
            try await b.waitForWork(timeout: .seconds(60))
            let clock = ContinuousClock()
            let start = clock.now
            let waiting = Task { try await b.waitForWork(timeout: .seconds(600)) }
            _ = try await a.enqueue(files(1...1))
            try await waiting.value
            // Woken by the notification, not by the (far) timeout.
            #expect(clock.now - start < .seconds(300))
            #expect(try await b.claimWork(limit: 1, holder: "b:2", lease: .seconds(60)).count == 1)
            await a.close()
            await b.close()
        }
    }
}
