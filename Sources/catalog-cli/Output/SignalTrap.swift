import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into cancellation of the running work: no new work starts, finished work is
/// committed, and the command then exits 130 (SIGINT) or 143 (SIGTERM). A second signal ends
/// the process at once (SQLite's journal keeps the catalog consistent even then).
final class SignalTrap: Sendable {
    private let received = Atomic<Int32>(0)
    private let sources: [any DispatchSourceSignal]

    /// Traps the signals and calls `cancel` on the first one.
    init(cancel: @escaping @Sendable () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: signalNumber, queue: .global()))
        }
        self.sources = sources
        for (source, signalNumber) in zip(sources, [SIGINT, SIGTERM]) {
            source.setEventHandler { [received] in
                let (exchanged, _) = received.compareExchange(expected: 0, desired: signalNumber, ordering: .sequentiallyConsistent)
                if exchanged {
                    cancel()
                } else {
                    _exit(128 + signalNumber)
                }
            }
            source.resume()
        }
    }

    /// The signal that arrived, if any.
    var signalNumber: Int32? {
        let value = received.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    /// 130 for SIGINT, 143 for SIGTERM.
    var exitCode: Int32 { 128 + (signalNumber ?? SIGINT) }

    /// The signal's name, for messages.
    var signalName: String { signalNumber == SIGTERM ? "SIGTERM" : "SIGINT" }
}
