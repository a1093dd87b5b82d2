import Testing

@testable import Catalog

/// An import hands its results on in the files' order, so entry ids (and the export names made from
/// them) do not depend on which file finished first.
@Suite struct BoundedWorkOrderTests {
    /// Opened once; whoever waits before or after it opened goes on.
    actor Gate {
        private var open = false
        private var waiters: [CheckedContinuation<Void, Never>] = []
        func wait() async {
            if open { return }
            await withCheckedContinuation { waiters.append($0) }
        }
        func openGate() {
            open = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    /// Item 0 finishes only after item 1 has: in order, it is still handed on first.
    @Test func inOrderHandsResultsOnInTheOrderStarted() async throws {
        let gate = Gate()
        var items = [0, 1, 2, 3].makeIterator()
        var seen: [Int] = []
        try await BoundedWork.run(jobs: 2, inOrder: true, next: { items.next() }) { item in
            if item == 0 { await gate.wait() }
            if item == 1 { await gate.openGate() }
            return item
        } finished: { item in
            seen.append(item)
        }
        #expect(seen == [0, 1, 2, 3])
    }

    /// Without `inOrder` a result is handed on as soon as it is ready (reprocess, where order does not matter).
    @Test func unorderedHandsResultsOnAsTheyFinish() async throws {
        let gate = Gate()
        var items = [0, 1].makeIterator()
        var seen: [Int] = []
        try await BoundedWork.run(jobs: 2, next: { items.next() }) { item in
            if item == 0 { await gate.wait() }
            return item
        } finished: { item in
            seen.append(item)
            if item == 1 { await gate.openGate() }
        }
        #expect(seen == [1, 0])
    }
}
