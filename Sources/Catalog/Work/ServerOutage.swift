import Foundation
import Synchronization

/// What a worker tells about its catalog's server going away and coming back (one notice each per outage).
public enum WorkNotice: Sendable, Equatable {
    /// The server cannot be reached (`error` says why); the worker retries for up to `retryingFor`.
    case serverLost(CatalogError, retryingFor: Duration)
    /// The server answers again, `after` the first failed call.
    case serverBack(after: Duration)
}

extension CatalogError {
    /// A failure that may pass by itself: the database server cannot be reached (it restarts, fails over,
    /// the network is down), as opposed to a refusal or broken data that a retry would only repeat.
    public var isServerOutage: Bool {
        if case .serverUnreachable = self { true } else { false }
    }
}

/// Keeps a worker going through an outage of its catalog's server (a restart, a fail-over): a call that
/// fails with ``CatalogError/isServerOutage`` is tried again after pauses that grow from 0.25 s to 5 s,
/// until it succeeds or `patience` has passed since the outage began (then the error is thrown). Each
/// attempt makes a new connection (the store's pool drops broken ones), so a worker reconnects by itself.
///
/// Shared by the worker's loop and its final release: an outage is reported once, when the first call
/// fails, and its end once, when a call succeeds again, however many calls retried meanwhile.
final class ServerOutage: Sendable {
    private let patience: Duration
    private let notify: @Sendable (WorkNotice) -> Void
    /// When the current outage began; nil while the server answers.
    private let began = Mutex<ContinuousClock.Instant?>(nil)

    init(patience: Duration, notify: @escaping @Sendable (WorkNotice) -> Void) {
        self.patience = patience
        self.notify = notify
    }

    /// `body`'s value, retried through an outage. A cancelled task (the worker was signalled) does not
    /// wait: it gets the error at once, and what it holds is left to its leases.
    func retrying<T>(_ body: () async throws(CatalogError) -> T) async throws(CatalogError) -> T {
        var pause: Duration = .milliseconds(250)
        while true {
            do {
                let value = try await body()
                recovered()
                return value
            } catch {
                guard error.isServerOutage, !Task.isCancelled, lasted(error) < patience else { throw error }
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
            }
        }
    }

    /// How long the outage has lasted, starting (and reporting) it on its first failure.
    private func lasted(_ error: CatalogError) -> Duration {
        let now = ContinuousClock.now
        let (start, isNew) = began.withLock { began -> (ContinuousClock.Instant, Bool) in
            if let began { return (began, false) }
            began = now
            return (now, true)
        }
        if isNew { notify(.serverLost(error, retryingFor: patience)) }
        return now - start
    }

    private func recovered() {
        let start = began.withLock { began -> ContinuousClock.Instant? in
            defer { began = nil }
            return began
        }
        if let start { notify(.serverBack(after: ContinuousClock.now - start)) }
    }
}
