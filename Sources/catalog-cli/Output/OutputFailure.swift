import Foundation
import Synchronization

/// The first write to stdout or stderr that failed, and what that does to the command: a short command
/// ends at once (quietly on a closed pipe, exit 141 as if SIGPIPE had ended it; with a message and exit 74
/// on any other error, such as a full disk); a long job (import, reprocess) registers ``stopWork(_:)``,
/// is stopped like a SIGINT would stop it, and ends with ``exitIfFailed()`` once its finished work is kept.
enum OutputFailure {
    /// One failed stream: which one and the errno of the write.
    struct Failure: Sendable {
        let descriptor: Int32
        let code: Int32

        var isClosedPipe: Bool { code == EPIPE }
        var streamName: String { descriptor == STDOUT_FILENO ? "standard output" : "standard error" }
        /// 141 (128 + SIGPIPE) for a closed pipe, as the shell reports a tool SIGPIPE ended; else 74.
        var exitCode: Int32 { (isClosedPipe ? ExitStatus.closedPipe : .ioError).code }

        /// "disk full" rather than "No space left on device": the plain words the docs promise.
        var reason: String {
            switch code {
            case ENOSPC, EDQUOT: "disk full"
            case EPIPE: "closed pipe"
            case EIO: "input/output error"
            case EBADF: "not open"
            default: String(cString: strerror(code)).lowercased()
            }
        }
    }

    private struct State {
        var failures: [Int32: Failure] = [:]
        var stop: (@Sendable () -> Void)?
    }

    private static let state = Mutex(State())

    /// Lets writes fail with EPIPE instead of killing the process: every write is checked instead.
    static func install() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Whether writes to `descriptor` already failed (later ones are dropped).
    static func hasFailed(_ descriptor: Int32) -> Bool {
        state.withLock { $0.failures[descriptor] != nil }
    }

    /// Records a failed write. A long job is stopped (once); a short command ends here.
    static func record(descriptor: Int32, code: Int32) {
        let failure = Failure(descriptor: descriptor, code: code)
        let (first, stop) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard state.failures[descriptor] == nil else { return (false, nil) }
            let first = state.failures.isEmpty
            state.failures[descriptor] = failure
            return (first, state.stop)
        }
        guard first else { return }
        if let stop {
            stop()
        } else {
            end(failure)
        }
    }

    /// Long jobs: a failed write calls `stop` (which cancels the work) instead of ending the process.
    static func stopWork(_ stop: @escaping @Sendable () -> Void) {
        state.withLock { $0.stop = stop }
    }

    /// The first failure, if any write failed.
    static var first: Failure? {
        state.withLock { state in state.failures[STDOUT_FILENO] ?? state.failures[STDERR_FILENO] }
    }

    /// Ends the process when a write failed: after a long job, once its finished work is committed.
    /// `done` says what was kept, for the stderr line (when stderr still works).
    static func exitIfFailed(done: String) {
        guard let failure = first else { return }
        if !hasFailed(STDERR_FILENO) {
            Terminal.standardError.write("catalog: \(failure.streamName) failed (\(failure.reason)): stopped; \(done)\n")
        }
        exit(failure.exitCode)
    }

    private static func end(_ failure: Failure) -> Never {
        if !failure.isClosedPipe, failure.descriptor != STDERR_FILENO, !hasFailed(STDERR_FILENO) {
            Terminal.standardError.write("catalog: error: cannot write to \(failure.streamName): \(failure.reason)\n")
        }
        exit(failure.exitCode)
    }
}
