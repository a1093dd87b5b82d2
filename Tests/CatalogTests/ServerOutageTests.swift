import Foundation
import PostgresTestSupport
import Synchronization
import Testing

@testable import Catalog

/// How a worker rides out its server going away: retried calls, one notice per outage, a bounded patience;
/// and, on a real server that restarts, a store whose connections (the pool's and the LISTEN one) recover.
@Suite(.timeLimit(.minutes(15))) struct ServerOutageTests {
    private static let down = CatalogError.serverUnreachable(address: "postgres://u@db/c", server: "db:5432", reason: "connection refused")

    /// Records what a ``ServerOutage`` reports.
    private final class Notices: Sendable {
        private let list = Mutex<[WorkNotice]>([])
        func add(_ notice: WorkNotice) { list.withLock { $0.append(notice) } }
        var all: [WorkNotice] { list.withLock { $0 } }
    }

    @Test func callsAreRetriedThroughAnOutageThatIsReportedOnce() async throws {
        let notices = Notices()
        // Patient enough for a busy test pool, whose threads may resume the retries' sleeps late.
        let outage = ServerOutage(patience: .seconds(3600), notify: notices.add)
        let attempts = Mutex(0)
        let value = try await outage.retrying { () throws(CatalogError) -> Int in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            if attempt < 3 { throw Self.down }
            return attempt
        }
        #expect(value == 3)
        let reported = notices.all
        #expect(reported.count == 2, "\(reported)")
        #expect(reported.first == .serverLost(Self.down, retryingFor: .seconds(3600)))
        if case .serverBack = reported.last {} else { Issue.record("no notice of the server's return: \(reported)") }
        // Calls that succeed at once report nothing more.
        #expect(try await outage.retrying { () throws(CatalogError) in 1 } == 1)
        #expect(notices.all.count == 2)
    }

    @Test func anOutageLongerThanThePatienceEndsTheCall() async throws {
        let notices = Notices()
        let outage = ServerOutage(patience: .milliseconds(600), notify: notices.add)
        await #expect(throws: Self.down) {
            try await outage.retrying { () throws(CatalogError) -> Int in throw Self.down }
        }
        #expect(notices.all.count == 1)
    }

    @Test func otherFailuresAreNotRetried() async throws {
        let outage = ServerOutage(patience: .seconds(60), notify: { _ in })
        let attempts = Mutex(0)
        let refused = CatalogError.accessDenied(address: "postgres://u@db/c", user: "u", reason: "password authentication failed")
        await #expect(throws: refused) {
            try await outage.retrying { () throws(CatalogError) -> Int in
                attempts.withLock { $0 += 1 }
                throw refused
            }
        }
        #expect(attempts.withLock { $0 } == 1)
    }

    /// A store on a server that is stopped and started again: a statement on it says the server cannot be
    /// reached (exit 69) while it is down, works again once it is back, and a worker waiting for work is
    /// woken by an enqueue on its new LISTEN connection.
    @Test(.enabled(if: NetworkedPostgresServer.isInstalled, "PostgreSQL is not installed (make test installs it)"))
    func aStoreRecoversFromAServerRestart() async throws {
        let server = try NetworkedPostgresServer(host: "127.0.0.1", port: try unusedLoopbackPort(), subnet: "127.0.0.1/32", launcher: [])
        defer { server.stop() }
        try server.psql("CREATE DATABASE restart")
        // A generous connect timeout: on two busy cores the handshake's resumptions may wait many seconds
        // for a thread of the test pool (a stopped server still refuses at once).
        let address = try PostgresAddress(parsing: server.address(database: "restart") + "&connect_timeout=300")
        let worker = try await PostgresCatalogStore.open(address: address, access: .readWrite, environment: [:])
        let producer = try await PostgresCatalogStore.open(address: address, access: .readWrite, environment: [:])
        // Listening (the first wait returns once it listens).
        try await worker.waitForWork(timeout: .seconds(30))

        try server.stopFast()
        do {
            _ = try await worker.workStatus()
            Issue.record("a statement succeeded with the server down")
        } catch {
            #expect(error.isServerOutage, "\(error)")
        }
        try server.start()
        #expect(try await worker.workStatus().pending == 0)

        // The broken LISTEN connection woke the worker (one wait returns at once) and is replaced at the next
        // wait, which returns once it listens; an enqueue then wakes the wait after, long before its timeout.
        try await worker.waitForWork(timeout: .seconds(30))
        try await worker.waitForWork(timeout: .seconds(30))
        let clock = ContinuousClock()
        let start = clock.now
        let waiting = Task { try await worker.waitForWork(timeout: .seconds(600)) }
        _ = try await producer.enqueue([SourceFile(path: "/photos/1.jpg", size: 1, modificationTime: 1)])
        try await waiting.value
        #expect(clock.now - start < .seconds(300))
        await worker.close()
        await producer.close()
    }
}
