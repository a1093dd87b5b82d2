import Foundation
import ServiceLifecycle
import Synchronization

/// Whether the server is stopping: from the first SIGINT or SIGTERM on, changes are answered 503
/// (`stopping`), so nothing is accepted that would not be carried out.
final class StoppingFlag: Sendable {
    private let value = Atomic(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() {
        value.store(true, ordering: .releasing)
    }
}

/// On graceful shutdown: refuses new changes, stops the running job (its finished entries kept, the
/// page told it was interrupted), then closes the event streams, which would otherwise hold the
/// server open.
struct ShutdownCoordinator: Service {
    let hub: ProgressHub
    let jobs: JobRunner
    let stopping: StoppingFlag

    /// What stopping does, at the first signal or the service's graceful shutdown, whichever comes first
    /// (each step may run twice).
    static func stop(hub: ProgressHub, jobs: JobRunner, stopping: StoppingFlag) async {
        stopping.set()
        await jobs.stop()
        hub.close()
    }

    func run() async throws {
        // Events keep flowing as comments while idle, so proxies and browsers keep the stream open.
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    try? await Task.sleep(for: .seconds(15))
                    hub.publish(ServerEvent(name: "ping", json: [String: String]()))
                }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        await Self.stop(hub: hub, jobs: jobs, stopping: stopping)
    }
}

/// The signals beyond the first: the first SIGINT or SIGTERM starts the graceful stop (the service
/// group's); a second one ends the process at once (130 or 143), as a person pressing Ctrl-C twice
/// expects. Should the graceful stop itself hang, it ends the process `deadline` after the first.
final class SecondSignal: Sendable {
    private let seen = Mutex(0)
    private nonisolated(unsafe) var sources: [any DispatchSourceSignal] = []

    /// `onFirst` runs at the first signal, before the service group passes it on to the server (which
    /// waits for requests in flight): an upload still arriving then ends in 503, and event streams,
    /// which never end by themselves, are closed at once.
    static func watch(deadline: Duration, onFirst: @escaping @Sendable () -> Void) -> SecondSignal {
        let watcher = SecondSignal()
        let queue = DispatchQueue(label: "catalog-serve.signals")
        let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                // Signals that come close together reach the handler as one event; `data` says how many.
                let received = max(1, Int(source.data))
                let count = watcher.seen.withLock { seen in
                    seen += received
                    return seen
                }
                if count >= 2 { exit(128 + number) }
                onFirst()
                queue.asyncAfter(deadline: .now() + seconds) {
                    // The process exits either way: a closed or full stderr only loses this line.
                    try? FileHandle.standardError.write(
                        contentsOf: Data("catalog: the server did not stop within \(Int(seconds)) s; exiting\n".utf8))
                    exit(0)
                }
            }
            source.resume()
            return source
        }
        // Set once, before the watcher is shared.
        watcher.sources = sources
        return watcher
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
