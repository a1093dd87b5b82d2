import Synchronization

/// Waits for another process's lock on the catalog, as every back end sees them: once ``interrupt(signal:)``
/// was called (the CLI calls it on SIGINT/SIGTERM), no wait goes on, so a signal ends a wait on a busy
/// catalog at once instead of after the whole timeout.
public enum LockWaits {
    private static let signal = Atomic<Int32>(0)

    /// Ends every wait for a lock now and from now on (the operation then fails as busy).
    public static func interrupt(signal number: Int32) {
        _ = signal.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent)
    }

    /// The signal that interrupted the waits, if one did.
    public static var interruptingSignal: Int32? {
        let value = signal.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }
}
