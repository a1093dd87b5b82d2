import Foundation
import Synchronization

/// Runs the pieces of one piece of work (a layer's rows) on the calling thread and on a helper
/// thread beside it: both take the next piece until none is left, and the call returns when
/// every piece is done. A helper that wakes too late finds nothing left and is not waited for,
/// so the caller never waits on a thread that has not started.
enum SharedRows {
    /// Pieces run on helper threads since the process started (for tests: sharing did happen).
    static let piecesOnHelpers = Atomic<Int>(0)

    /// Calls `body(piece, onHelper)` once for each piece in `0..<count`, some on a helper thread
    /// (`onHelper` true there: such a call needs scratch of its own). The pieces must not write
    /// to the same memory. Everything `body` wrote is visible to the caller on return.
    static func run(count: Int, _ body: (_ piece: Int, _ onHelper: Bool) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0, false) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let job = SharedJob(count: count, body: body)
            HelperThreads.shared.offer(job)
            job.takePieces(onHelper: false)
            job.finish()
        }
    }
}

/// One `SharedRows.run` call as the helper thread sees it.
///
/// `@unchecked Sendable`: `body` (which holds the caller's pointers) is read by the helper only
/// after it has claimed the job, and the caller clears it only once the job was cancelled before
/// any claim or the claiming helper has signalled that it is done; the pieces themselves are
/// handed out by an atomic counter.
final class SharedJob: @unchecked Sendable {
    private let count: Int
    private let next = Atomic<Int>(0)
    /// 0 waiting for a helper, 1 claimed by one, 2 cancelled by the caller.
    private let claim = Atomic<Int>(0)
    private let helperDone = DispatchSemaphore(value: 0)
    private var body: ((Int, Bool) -> Void)?

    init(count: Int, body: @escaping (Int, Bool) -> Void) {
        self.count = count
        self.body = body
    }

    /// On the helper thread: claims the job unless the caller finished it first, and helps.
    func help() {
        guard claim.compareExchange(expected: 0, desired: 1, ordering: .sequentiallyConsistent).exchanged else { return }
        takePieces(onHelper: true)
        helperDone.signal()
    }

    fileprivate func takePieces(onHelper: Bool) {
        guard let body else { return }
        while true {
            let piece = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard piece < count else { return }
            body(piece, onHelper)
            if onHelper { SharedRows.piecesOnHelpers.wrappingAdd(1, ordering: .relaxed) }
        }
    }

    /// On the caller, after its own pieces: waits for a helper that claimed the job.
    fileprivate func finish() {
        if !claim.compareExchange(expected: 0, desired: 2, ordering: .sequentiallyConsistent).exchanged {
            helperDone.wait()
        }
        body = nil
    }
}

/// The threads that help with `SharedRows` jobs: made when first needed, at most one per core
/// but one, then parked between jobs.
final class HelperThreads: Sendable {
    static let shared = HelperThreads(limit: max(1, ProcessInfo.processInfo.activeProcessorCount - 1))

    private let limit: Int
    private let state = Mutex<(jobs: [SharedJob], threads: Int, idle: Int)>(([], 0, 0))
    private let wake = DispatchSemaphore(value: 0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Queues `job` for the next free helper (starting one if none is free and the limit allows).
    func offer(_ job: SharedJob) {
        let start = state.withLock { state in
            state.jobs.append(job)
            guard state.idle == 0, state.threads < limit else { return false }
            state.threads += 1
            return true
        }
        if start { Thread.detachNewThread { [self] in serve() } }
        wake.signal()
    }

    private func serve() {
        while true {
            state.withLock { $0.idle += 1 }
            wake.wait()
            let job = state.withLock { state -> SharedJob? in
                state.idle -= 1
                return state.jobs.isEmpty ? nil : state.jobs.removeFirst()
            }
            job?.help()
        }
    }
}
