import Foundation
import Synchronization

/// A child process the tests can await without holding a thread while it runs.
///
/// `Process.waitUntilExit()` blocks its thread, and a test runs on the cooperative pool, which has a
/// thread per core: two tests waiting on children would hold the whole pool, and every in-process
/// server and every other test's continuation would wait behind them. Here the exit is reported by
/// the termination handler, installed before the child starts so that no exit can be missed.
public final class WatchedProcess: Process, @unchecked Sendable {
    private let exit = ExitSignal()

    override public func run() throws {
        let exit = self.exit
        terminationHandler = { _ in exit.fire() }
        try super.run()
    }

    /// Returns when the process has exited (at once if it already has).
    public func exited() async {
        await exit.wait()
    }

    /// Returns when the process has exited, or when `limit` has passed first: whether it exited.
    public func exited(within limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.exited(); return true }
            group.addTask { try? await Task.sleep(for: limit); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            if !first { return !isRunning }
            return first
        }
    }

    /// When the termination handler saw the exit, nil before: a time measured to it does not include
    /// the wait of an awaiting test for a thread of the pool.
    public var exitTime: ContinuousClock.Instant? { exit.firedAt }

    /// Starts the process and returns when it has exited.
    public func runToExit() async throws {
        try run()
        await exited()
    }
}

/// Fires once; everyone who waits, before or after, is resumed.
final class ExitSignal: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Void, Never>])
        case fired
    }

    private let state = Mutex(State.waiting([]))
    private let firedInstant = Mutex<ContinuousClock.Instant?>(nil)

    var firedAt: ContinuousClock.Instant? { firedInstant.withLock { $0 } }

    func fire() {
        let now = ContinuousClock.now
        firedInstant.withLock { $0 = $0 ?? now }
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = .fired
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired: Bool = state.withLock { state in
                switch state {
                case .fired:
                    return true
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return false
                }
            }
            if fired { continuation.resume() }
        }
    }
}

extension FileHandle {
    /// Everything until the end of the stream (a child's pipe: until it and its children close it),
    /// read on a thread of its own, since the reads block and a test's thread belongs to the pool.
    public func readUntilClosed() async -> Data {
        await withCheckedContinuation { (done: CheckedContinuation<Data, Never>) in
            let reader = UncheckedHandle(handle: self)
            Thread { done.resume(returning: reader.handle.readDataToEndOfFile()) }.start()
        }
    }
}

/// A file handle handed to the one thread that reads it.
private struct UncheckedHandle: @unchecked Sendable {
    let handle: FileHandle
}

/// Runs `steps` on a thread of its own and returns what they return: for a sequence of waits and
/// actions that must keep pace with children (a kill, then a server's stop, each when the children
/// have got so far), which a test awaiting on a pool that busy tests fill could fall behind.
public func onThreadOfItsOwn<Result: Sendable>(_ steps: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { (done: CheckedContinuation<Result, Never>) in
        Thread { done.resume(returning: steps()) }.start()
    }
}

/// Polls `condition` every `interval` on the calling thread until it holds or `limit` passes:
/// whether it held. For steps run with ``onThreadOfItsOwn(_:)``.
public func poll(
    until condition: () -> Bool, within limit: Duration, every interval: Duration = .milliseconds(5)
) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    let seconds = Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds)
    while !condition() {
        guard clock.now < deadline else { return false }
        Thread.sleep(forTimeInterval: seconds)
    }
    return true
}

/// Watches for `condition` (a child's progress, seen in its output) on a thread of its own, polling
/// every `interval`, and runs `action` there the moment it holds or `limit` passes: for a signal or a
/// stop that must land while a child is mid-run, which a test awaiting on a busy pool could deliver
/// too late. Returns whether the condition held.
@discardableResult
public func act(
    when condition: @escaping @Sendable () -> Bool, within limit: Duration = .seconds(120),
    every interval: Duration = .milliseconds(5), then action: @escaping @Sendable () -> Void
) async -> Bool {
    await onThreadOfItsOwn {
        let held = poll(until: condition, within: limit, every: interval)
        action()
        return held
    }
}
