import Foundation
import PostgresNIO
import PostgresTestSupport
import Testing

@testable import Catalog

/// A connection the server closes in the middle of a transaction (a restart, a fail-over, an
/// administrator's `pg_terminate_backend`): the transaction fails as an outage at once, nothing waits
/// for an answer that cannot come, and the store goes on with new connections.
@Suite(.enabled(if: TestPostgresServer.isAvailable, "PostgreSQL is not installed (make test installs it)"), .timeLimit(.minutes(15)))
struct PostgresLostConnectionTests {
    /// Ends the server process behind `pid` and waits until the client has seen its connection close.
    private func terminate(_ pid: Int32, of connection: PostgresConnection) async throws {
        try TestPostgresServer.server.psql("SELECT pg_terminate_backend(\(pid))")
        try await connection.closeFuture.get()
        // The client tears the connection's handlers down after it closes: statements sent after that
        // were never answered nor failed (the hang this suite is about).
        try await Task.sleep(for: .milliseconds(200))
    }

    @Test(arguments: [Transaction.write, .queue, .read])
    func aTransactionWhoseConnectionIsClosedFailsAsAnOutage(_ transaction: Transaction) async throws {
        try await withTemporaryDirectory { directory in
            let store = try #require(try await openStore(.postgres, in: directory) as? PostgresCatalogStore)
            let body: @Sendable (PostgresConnection) async throws -> Void = { connection in
                let pid: Int32 = try #require(try await connection.row("SELECT pg_backend_pid() AS pid")).value("pid")
                try await terminate(pid, of: connection)
                try await connection.run("SELECT 1")
            }
            let error = await #expect(throws: CatalogError.self) {
                switch transaction {
                case .write: try await store.write(body)
                case .queue: try await store.queueTransaction(body)
                case .read: try await store.readTransaction(body)
                }
            }
            #expect(error?.isServerOutage == true)
            // The write gate was given back and a new connection is made.
            let answer: Int = try await store.write { connection in try #require(try await connection.row("SELECT 41 + 1 AS n")).value("n") }
            #expect(answer == 42)
            await store.close()
        }
    }

    enum Transaction: Sendable {
        case write, queue, read
    }
}
