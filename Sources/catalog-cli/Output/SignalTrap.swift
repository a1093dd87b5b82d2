import Catalog
import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into cancellation of the running work: no new work starts, finished
/// work is committed, and the command then exits 130 (SIGINT) or 143 (SIGTERM). A second signal
/// ends the process at once (SQLite's write-ahead log keeps the catalog consistent even then).
/// Keep the trap alive for as long as the work runs.
final class SignalTrap {
    /// The first signal received and what it cancels, shared with the handlers (which run on a Dispatch queue).
    private final class State: Sendable {
        let signal = Atomic<Int32>(0)
        /// Called on the first signal; set once the work exists (a signal before that is kept and acted on then).
        let cancel = Mutex<(@Sendable () -> Void)?>(nil)
        /// Whether the first signal also ends waits for the catalog's lock (see ``SignalTrap/init(interruptingLockWaits:)``).
        let interruptsLockWaits: Bool

        init(interruptsLockWaits: Bool) {
            self.interruptsLockWaits = interruptsLockWaits
        }

        func signalled(_ signalNumber: Int32) {
            let (first, _) = signal.compareExchange(expected: 0, desired: signalNumber, ordering: .sequentiallyConsistent)
            guard first else { _exit(128 + signalNumber) }
            // A wait for another process's lock on the catalog ends now, too.
            if interruptsLockWaits { LockWaits.interrupt(signal: signalNumber) }
            cancel.withLock { $0 }?()
        }
    }

    private let state: State
    private let sources: [any DispatchSourceSignal]

    /// Traps the signals now; what they cancel is given later with ``cancelOnSignal(_:)``, so a command
    /// can trap them before its slow set-up (opening the catalog, scanning it).
    ///
    /// `interruptingLockWaits: false` keeps waiting for the catalog's lock after the first signal: for
    /// `catalog work`, whose last writes (committing finished files, giving claims back) must reach a
    /// catalog that other workers keep locking for short moments. A second signal still ends it at once.
    init(interruptingLockWaits: Bool = true) {
        let state = State(interruptsLockWaits: interruptingLockWaits)
        self.state = state
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { state.signalled(signalNumber) }
            source.resume()
            return source
        }
    }

    /// Traps the signals and calls `cancel` on the first one.
    convenience init(cancel: @escaping @Sendable () -> Void) {
        self.init()
        cancelOnSignal(cancel)
    }

    deinit {
        sources.forEach { $0.cancel() }
    }

    /// Calls `cancel` on the first signal, or at once when it already came.
    func cancelOnSignal(_ cancel: @escaping @Sendable () -> Void) {
        state.cancel.withLock { $0 = cancel }
        if signalNumber != nil { cancel() }
    }

    /// The signal that arrived, if any.
    var signalNumber: Int32? {
        let value = state.signal.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    /// 130 for SIGINT, 143 for SIGTERM.
    var exitCode: Int32 { signalNumber == SIGTERM ? ExitStatus.interruptedBySIGTERM : ExitStatus.interrupted.code }

    /// The signal's name, for messages.
    var signalName: String { signalNumber == SIGTERM ? "SIGTERM" : "SIGINT" }
}
