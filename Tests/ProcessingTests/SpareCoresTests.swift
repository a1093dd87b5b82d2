import Synchronization
import Testing

@testable import Processing

@Suite(.timeLimit(.minutes(15)))
struct SpareCoresTests {
    @Test func aCoreIsLentOnlyWhileNoPhotoHoldsIt() {
        let cores = SpareCores(jobs: 3, cores: 2)
        #expect(cores.capacity == 2)
        cores.enter()
        #expect(cores.borrow())
        // Both cores are taken now: one held, one lent.
        #expect(!cores.borrow())
        cores.giveBack()
        cores.enter()
        #expect(!cores.borrow())
        cores.leave()
        #expect(cores.borrow())
        cores.giveBack()
        cores.leave()
        #expect(SpareCores(jobs: 1, cores: 8).capacity == 1)
        #expect(SpareCores(jobs: 0, cores: 8).capacity == 1)
    }

    @Test func theBudgetIsSeenByTheTasksOfABatch() async {
        let cores = SpareCores(jobs: 2, cores: 2)
        let seen = await SpareCores.$current.withValue(cores) {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { SpareCores.current === cores }
                return await group.next() ?? false
            }
        }
        #expect(seen)
        #expect(SpareCores.current == nil)
    }
}

@Suite(.timeLimit(.minutes(15)))
struct SharedRowsTests {
    @Test(arguments: [0, 1, 2, 7, 200])
    func everyPieceRunsOnceAndIsDoneOnReturn(count: Int) {
        let runs = Mutex([Int](repeating: 0, count: count))
        let writes = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(1, count))
        defer { writes.deallocate() }
        writes.initialize(repeating: -1)
        SharedRows.run(count: count) { piece, _ in
            runs.withLock { $0[piece] += 1 }
            // A little work, so that the second worker has a chance to take some.
            var sum = 0
            for value in 0..<2_000 { sum &+= value &* piece }
            writes[piece] = piece + sum - sum
        }
        for piece in 0..<count {
            #expect(runs.withLock { $0[piece] } == 1)
            #expect(writes[piece] == piece)
        }
    }

    @Test func manyCallsInARowAndAtOnceAllFinish() async {
        await withTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var total = 0
                    for _ in 0..<200 {
                        let sums = Mutex([Int](repeating: 0, count: 5))
                        SharedRows.run(count: 5) { piece, _ in sums.withLock { $0[piece] += piece + task } }
                        total += sums.withLock { $0.reduce(0, +) }
                    }
                    return total
                }
            }
            for await total in group { #expect(total % 200 == 0) }
        }
    }
}
