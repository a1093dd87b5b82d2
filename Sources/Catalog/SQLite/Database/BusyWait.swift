import Foundation
import GRDB
import Synchronization

/// How every catalog connection waits for another process's lock: in short sleeps, up to the busy
/// timeout, and not at all once ``interrupt(signal:)`` was called (the CLI calls it on SIGINT/SIGTERM),
/// so a signal ends a wait on a busy catalog at once instead of after the whole timeout.
public enum BusyWait {
    private static let signal = Atomic<Int32>(0)
    /// One sleep between two tries of a locked catalog.
    static let step: Duration = .milliseconds(20)

    /// Ends every wait for a lock now and from now on (the operation then fails as busy).
    public static func interrupt(signal number: Int32) {
        _ = signal.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent)
    }

    /// The signal that interrupted the waits, if one did.
    public static var interruptingSignal: Int32? {
        let value = signal.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    /// GRDB's busy mode for `timeout`: retry every `step` until it has passed or a signal came.
    static func mode(timeout: Duration) -> Database.BusyMode {
        let tries = max(0, Int((timeout / step).rounded(.up)))
        let micros = useconds_t(step.components.attoseconds / 1_000_000_000_000)
        return .callback { attempt in
            guard interruptingSignal == nil, attempt < tries else { return false }
            usleep(micros)
            return interruptingSignal == nil
        }
    }
}
