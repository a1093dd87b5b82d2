import NIOCore
import PostgresNIO

/// The connections of one open PostgreSQL catalog: idle ones are reused, new ones made through the
/// connector (with its timeout and error mapping) when all are busy, broken ones dropped. A catalog
/// command holds a handful at most (one per concurrent read, one for writes).
actor PostgresConnectionPool {
    private let connector: PostgresConnector
    private var idle: [PostgresConnection]
    private var closed = false

    init(connector: PostgresConnector, first: PostgresConnection) {
        self.connector = connector
        idle = [first]
    }

    /// An idle connection, or a new one.
    ///
    /// A new connection is made in a task of its own, which does not inherit the caller's cancellation:
    /// postgres-nio abandons a connect (and the connect deadline's sleep throws) in a cancelled task, so a
    /// worker signalled while its pool was empty failed with a CancellationError (exit 74) instead of
    /// giving its claims back. Connecting has its own deadline, so this never waits long.
    func acquire() async throws(CatalogError) -> PostgresConnection {
        while let connection = idle.popLast() {
            if !connection.isClosed { return connection }
        }
        let connector = self.connector
        let connecting = Task { () async -> Result<PostgresConnection, CatalogError> in
            do throws(CatalogError) {
                return .success(try await connector.connect())
            } catch {
                return .failure(error)
            }
        }
        return try await connecting.value.get()
    }

    /// Gives a connection back (closed or after the pool closed: dropped).
    func release(_ connection: PostgresConnection) async {
        if closed || connection.isClosed {
            try? await connection.close()
        } else {
            idle.append(connection)
        }
    }

    /// A store dropped without ``close()`` (commands and the server keep theirs to the end): its connections
    /// are closed here, blocking briefly. Never on an event loop thread: the pool is released by the tasks
    /// that used the store, which run on Swift's executors.
    deinit {
        for connection in idle where !connection.isClosed {
            try? connection.close().wait()
        }
    }

    /// Closes every idle connection; connections in use are closed when released.
    func close() async {
        closed = true
        let connections = idle
        idle.removeAll()
        for connection in connections { try? await connection.close() }
    }
}

/// One writer at a time within the process (the protocol's contract); across processes, write
/// transactions take an advisory lock (``PostgresCatalogStore/writeLockKey``).
actor PostgresWriteGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func leave() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
