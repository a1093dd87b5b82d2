import Foundation
import Testing

@testable import Catalog

/// The shared work queue over the interface: enqueueing, claims under leases, fencing tokens, release.
@Suite(.timeLimit(.minutes(15))) struct WorkQueueTests {
    private func file(_ index: Int, size: Int64 = 10) -> SourceFile {
        SourceFile(path: "/photos/\(index).jpg", size: size, modificationTime: 100)
    }

    @Test(arguments: StoreKind.withCopyAndWork)
    func enqueueingTwiceOrAnImportedFileDoesNothing(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let store = try await openStore(kind, in: directory)
            #expect(try await store.enqueue((1...5).map { file($0) }) == EnqueueCount(added: 5, unchanged: 0))
            #expect(try await store.enqueue((1...6).map { file($0) }) == EnqueueCount(added: 1, unchanged: 5))
            // Already imported with the same size and time.
            _ = try await store.recordProcessed(sampleProcessedPhoto(), sha256: sha(7), source: file(7))
            #expect(try await store.enqueue([file(7)]) == EnqueueCount(added: 0, unchanged: 1))
            let status = try await store.workStatus()
            #expect(status.pending == 6 && status.claimed == 0 && status.done == 0)
        }
    }

    @Test(arguments: StoreKind.withCopyAndWork)
    func aStaleFencingTokenCannotCommit(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let store = try await openStore(kind, in: directory)
            _ = try await store.enqueue([file(1)])
            let first = try #require(try await store.claimWork(limit: 5, holder: "a:1", lease: .milliseconds(1)).first)
            // Nobody else can take a live claim; an expired one is taken over with a new token.
            try await Task.sleep(for: .milliseconds(20))
            let second = try #require(try await store.claimWork(limit: 5, holder: "b:2", lease: .seconds(60)).first)
            #expect(second.id == first.id && second.fence == first.fence + 1)
            #expect(try await store.claimWork(limit: 5, holder: "c:3", lease: .seconds(60)).isEmpty)
            #expect(try await store.renewLeases([first], holder: "a:1", lease: .seconds(60)) == [first.id])

            let stale = try await store.completeWork(first, holder: "a:1", with: .unreadable(message: "from a"))
            #expect(stale == .fenced)
            let fresh = try await store.completeWork(second, holder: "b:2", with: .processed(sampleProcessedPhoto(), sha256: sha(1), source: file(1)))
            #expect(fresh == .committed(.imported(id: 1)))
            let status = try await store.workStatus()
            #expect(status.done == 1 && status.claimed == 0 && status.pending == 0 && status.isDrained)
            // Re-enqueueing the imported, unchanged file does nothing; a changed one is pending again.
            #expect(try await store.enqueue([file(1)]) == EnqueueCount(added: 0, unchanged: 1))
            #expect(try await store.enqueue([file(1, size: 11)]) == EnqueueCount(added: 1, unchanged: 0))
        }
    }

    /// A worker whose connection broke during its commit tries the commit again: when the first attempt had
    /// landed, the row (finished under the claim's fence) says so, and nothing is written twice.
    @Test(arguments: StoreKind.withCopyAndWork)
    func aCommitTriedAgainAfterItLandedIsRecognised(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let store = try await openStore(kind, in: directory)
            _ = try await store.enqueue([file(1), file(2)])
            let claims = try await store.claimWork(limit: 2, holder: "a:1", lease: .seconds(60))
            let result = WorkResult.processed(sampleProcessedPhoto(), sha256: sha(1), source: file(1))
            #expect(try await store.completeWork(claims[0], holder: "a:1", with: result) == .committed(.imported(id: 1)))
            #expect(try await store.completeWork(claims[0], holder: "a:1", with: result) == .committedEarlier(resultID: 1))
            // A released claim is not finished: trying its commit again is fenced, as before.
            try await store.releaseWork([claims[1]], holder: "a:1")
            #expect(try await store.completeWork(claims[1], holder: "a:1", with: .unreadable(message: "x")) == .fenced)
            let status = try await store.workStatus()
            #expect(status.done == 1 && status.pending == 1 && status.claimed == 0)
            #expect(try await store.stats().total == 1)
        }
    }

    /// A worker claims its next files with each commit (PostgreSQL: in the commit's transaction): the claims
    /// come with the commit's outcome, held under the worker's name with a new fencing token, and a commit
    /// that is fenced or was committed earlier still hands out the next files.
    @Test(arguments: StoreKind.withCopyAndWork)
    func aCommitClaimsTheNextFiles(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let store = try await openStore(kind, in: directory)
            _ = try await store.enqueue((1...4).map { file($0) })
            let first = try #require(try await store.claimWork(limit: 1, holder: "a:1", lease: .seconds(60)).first)
            let result = WorkResult.processed(sampleProcessedPhoto(), sha256: sha(1), source: file(1))
            let (commit, next) = try await store.completeWork(first, holder: "a:1", with: result, claimingNext: 1, lease: .seconds(60))
            #expect(commit == .committed(.imported(id: 1)))
            #expect(next.map(\.source.path) == [file(2).path] && next.allSatisfy { $0.fence == 1 && $0.id != first.id })
            // The same commit again: recognised, written once, and the next two files are claimed.
            let (again, more) = try await store.completeWork(first, holder: "a:1", with: result, claimingNext: 2, lease: .seconds(60))
            #expect(again == .committedEarlier(resultID: 1))
            #expect(more.map(\.source.path) == [file(3).path, file(4).path])
            // Nothing claimed when the worker asks for nothing (it is stopping).
            let (last, none) = try await store.completeWork(next[0], holder: "a:1", with: .unreadable(message: "gone"), claimingNext: 0, lease: .seconds(60))
            #expect(last == .committed(nil) && none.isEmpty)
            let status = try await store.workStatus()
            #expect(status.done == 1 && status.failed == 1 && status.claimed == 2 && status.pending == 0)
            #expect(status.holders.map(\.holder) == ["a:1"])
            #expect(try await store.stats().total == 1)
        }
    }

    @Test(arguments: StoreKind.withCopyAndWork)
    func releasedAndFailedWorkIsCounted(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let store = try await openStore(kind, in: directory)
            _ = try await store.enqueue([file(1), file(2)])
            let claims = try await store.claimWork(limit: 5, holder: "host-a:10", lease: .seconds(60))
            #expect(claims.count == 2)
            var status = try await store.workStatus()
            #expect(status.claimed == 2 && status.holders.map(\.holder) == ["host-a:10"] && status.holders.first?.expired == false)
            #expect(try await store.completeWork(claims[0], holder: "host-a:10", with: .unreadable(message: "cannot be read on host host-a")) == .committed(nil))
            try await store.releaseWork([claims[1]], holder: "host-a:10")
            status = try await store.workStatus()
            #expect(status.pending == 1 && status.claimed == 0 && status.failed == 1)
            #expect(status.failures.first?.message.contains("host-a") == true)
        }
    }
}
