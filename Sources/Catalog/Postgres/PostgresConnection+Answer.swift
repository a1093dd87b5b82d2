import NIOCore
import PostgresNIO
import Synchronization

/// Thrown for a statement whose connection closed without an answer to it.
struct StatementUnanswered: Error {}

extension PostgresConnection {
    /// The result of `statement`, run on this connection in a task of its own; fails with
    /// ``StatementUnanswered`` once the connection has been closed for a second without an answer.
    ///
    /// Why: postgres-nio hands a statement to its channel without a promise for the write. On a
    /// connection the server has just closed (a restart, `pg_terminate_backend`), once the client has
    /// torn the connection's handlers down, such a statement is neither sent nor failed, and its caller
    /// waits forever: a worker whose commit met a restart hung in the `ROLLBACK` after the failure,
    /// holding the write gate, while its lease renewals (on other connections) kept its claim alive.
    /// Statements the client did send fail by themselves when the connection closes; this only ends the
    /// wait for the ones it lost. The statement's own task is cancelled then; if it never ends, it stays
    /// suspended and holds nothing but the closed connection.
    func answer<T: Sendable>(_ statement: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        guard !isClosed else { throw StatementUnanswered() }
        let race = FirstOutcome<T>()
        let connection = self
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let running = Task {
                do {
                    race.finish(.success(try await statement(connection)))
                } catch {
                    race.finish(.failure(error))
                }
            }
            // Closed on two checks in a row: a second for the client to fail what it had sent.
            let closedChecks = Mutex(0)
            let watch = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
                let checks = closedChecks.withLock { checks in
                    checks = connection.isClosed ? checks + 1 : 0
                    return checks
                }
                if checks >= 2, race.finish(.failure(StatementUnanswered())) { running.cancel() }
            }
            race.onFinish { watch.cancel() }
        }
    }
}
