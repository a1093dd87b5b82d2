import Foundation
import GRDB

/// How every SQLite connection waits for another process's lock: in short sleeps, up to the busy
/// timeout, and not at all once ``LockWaits`` was interrupted.
enum BusyWait {
    /// One sleep between two tries of a locked catalog.
    static let step: Duration = .milliseconds(20)

    /// GRDB's busy mode for `timeout`: retry every `step` until it has passed or a signal came.
    static func mode(timeout: Duration) -> Database.BusyMode {
        let tries = max(0, Int((timeout / step).rounded(.up)))
        let micros = useconds_t(step.components.attoseconds / 1_000_000_000_000)
        return .callback { attempt in
            guard LockWaits.interruptingSignal == nil, attempt < tries else { return false }
            usleep(micros)
            return LockWaits.interruptingSignal == nil
        }
    }
}
