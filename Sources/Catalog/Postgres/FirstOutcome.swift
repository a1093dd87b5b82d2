import Synchronization

/// The first of several ways a wait can end (an answer, a deadline, a closed connection), handed to the
/// waiting caller once; the others find the race decided and do nothing.
final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var cleanup: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            if state.result == nil { state.continuation = continuation }
            return state.result
        }
        if let early { continuation.resume(with: early) }
    }

    /// Runs `cleanup` once the race is decided (at once if it already is).
    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
        let decided = state.withLock { state -> Bool in
            if state.result != nil { return true }
            state.cleanup = cleanup
            return false
        }
        if decided { cleanup() }
    }

    /// Decides the race with `result` if nothing did yet; false when it was already decided.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let decided = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?)? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil; state.cleanup = nil }
            return (state.continuation, state.cleanup)
        }
        guard let (continuation, cleanup) = decided else { return false }
        continuation?.resume(with: result)
        cleanup?()
        return true
    }
}
