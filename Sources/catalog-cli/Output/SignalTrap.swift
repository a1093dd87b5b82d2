import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into cancellation of the running work: no new work starts, finished
/// work is committed, and the command then exits 130 (SIGINT) or 143 (SIGTERM). A second signal
/// ends the process at once (SQLite's write-ahead log keeps the catalog consistent even then).
/// Keep the trap alive for as long as the work runs.
final class SignalTrap {
    /// The first signal received, shared with the handlers (which run on a Dispatch queue).
    private final class Received: Sendable {
        let signal = Atomic<Int32>(0)
    }

    private let received = Received()
    private let sources: [any DispatchSourceSignal]

    /// Traps the signals and calls `cancel` on the first one.
    init(cancel: @escaping @Sendable () -> Void) {
        let received = self.received
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                let (first, _) = received.signal.compareExchange(expected: 0, desired: signalNumber, ordering: .sequentiallyConsistent)
                if first { cancel() } else { _exit(128 + signalNumber) }
            }
            source.resume()
            return source
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }

    /// The signal that arrived, if any.
    var signalNumber: Int32? {
        let value = received.signal.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    /// 130 for SIGINT, 143 for SIGTERM.
    var exitCode: Int32 { 128 + (signalNumber ?? SIGINT) }

    /// The signal's name, for messages.
    var signalName: String { signalNumber == SIGTERM ? "SIGTERM" : "SIGINT" }
}
