import Foundation
import PostgresNIO

/// Wakes idle workers: a connection of its own that `LISTEN`s on the queue's channel, opened at the first
/// wait and kept while the store is open, so a `NOTIFY` between two waits is not missed. A notification
/// that arrives while nobody waits is remembered once; the next wait returns at once.
actor PostgresWorkListener {
    private let connector: PostgresConnector
    private var listening: Task<Void, Never>?
    private var connection: PostgresConnection?
    private var notified = false
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    /// Waits that ended (timed out) before their waiter was registered: it must not be registered then.
    private var ended: Set<UUID> = []
    private var closed = false
    /// Counts listening tasks: a task that ends touches the state only while it is still the current one.
    private var generation = 0

    init(connector: PostgresConnector) {
        self.connector = connector
    }

    /// Returns after a notification (or one that came since the last wait), or after `timeout`.
    func wait(timeout: Duration) async {
        startListening()
        if notified {
            notified = false
            return
        }
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.notification(id) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                await self.wake(id)
            }
            await group.next()
            group.cancelAll()
            self.wake(id)
        }
        ended.remove(id)
        notified = false
    }

    /// Stops listening and closes the connection.
    func close() async {
        closed = true
        listening?.cancel()
        listening = nil
        if let connection { try? await connection.close() }
        connection = nil
        for waiter in waiters.values { waiter.resume() }
        waiters.removeAll()
    }

    private func notification(_ id: UUID) async {
        await withCheckedContinuation { continuation in
            if notified || closed || ended.remove(id) != nil {
                continuation.resume()
            } else {
                waiters[id] = continuation
            }
        }
    }

    private func wake(_ id: UUID) {
        if let waiter = waiters.removeValue(forKey: id) {
            waiter.resume()
        } else {
            ended.insert(id)
        }
    }

    private func signal() {
        notified = true
        let woken = waiters.values
        waiters.removeAll()
        for waiter in woken { waiter.resume() }
    }

    /// Opens the listening connection unless it is open; a broken one is replaced at the next wait.
    ///
    /// A listening connection that breaks (the server restarted) wakes the waiters, so that a worker looks
    /// at the queue at once (and reconnects) instead of sleeping out its timeout with nobody listening.
    /// A connection that cannot be made does not: the wait then lasts its timeout, which paces the retries.
    private func startListening() {
        guard listening == nil, !closed else { return }
        generation += 1
        let current = generation
        listening = Task {
            guard let connection = try? await connector.connect() else { return await self.stopped(current, wasListening: false) }
            guard await self.adopt(connection, current) else { return }
            _ = try? await connection.listen(on: PostgresCatalogStore.workChannel) { notifications in
                // Listening from here on: whatever was enqueued before may have been missed, so look again.
                self.signal()
                for try await _ in notifications { self.signal() }
            }
            await self.stopped(current, wasListening: true)
        }
    }

    private func adopt(_ connection: PostgresConnection, _ current: Int) async -> Bool {
        guard !closed, current == generation else {
            try? await connection.close()
            return false
        }
        self.connection = connection
        return true
    }

    /// The listening task `current` ended: its connection is closed and forgotten, unless a newer one
    /// replaced it meanwhile (or the listener was closed, which closes its own).
    private func stopped(_ current: Int, wasListening: Bool) async {
        guard current == generation, !closed else { return }
        listening = nil
        let broken = connection
        connection = nil
        if let broken { try? await broken.close() }
        if wasListening { signal() }
    }
}

extension PostgresCatalogStore {
    /// The channel of `LISTEN`/`NOTIFY` for the work queue.
    static let workChannel = "catalog_work"
}
