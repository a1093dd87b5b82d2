import Dispatch
import Synchronization

/// Runs the pieces of one piece of work (a layer's rows) as two workers on Dispatch's pool
/// (`DispatchQueue.concurrentPerform`): the calling thread and, when the pool has a free thread,
/// a second one. Each worker takes the next piece until none is left; the call returns when every
/// piece is done. With no free thread the caller runs both workers itself, so it never waits on a
/// thread that has not started. Whether to share at all is `SpareCores`' decision.
enum SharedRows {
    /// Pieces run by the second worker since the process started (for tests: sharing did happen).
    static let piecesOnSecondWorker = Atomic<Int>(0)

    /// Calls `body(piece, worker)` once for each piece in `0..<count`, `worker` being 0 or 1 (two
    /// calls with different workers may run at once, so each worker needs scratch of its own). The
    /// pieces must not write to the same memory. Everything `body` wrote is visible on return.
    static func run(count: Int, _ body: (_ piece: Int, _ worker: Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0, 0) }
            return
        }
        let next = Atomic<Int>(0)
        // Not Sendable (it holds the caller's pointers), but only used until concurrentPerform
        // returns, which is after both workers are done.
        nonisolated(unsafe) let body = body
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            while true {
                let piece = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard piece < count else { return }
                body(piece, worker)
                if worker == 1 { piecesOnSecondWorker.wrappingAdd(1, ordering: .relaxed) }
            }
        }
    }
}
