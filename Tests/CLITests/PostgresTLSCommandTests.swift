import Catalog
import Foundation
import PostgresTestSupport
import Testing

/// The `catalog` binary on a `postgres://` catalog over TLS (a loopback server of the tests' own with `ssl = on`,
/// a certificate for `localhost` from a throwaway authority, TCP clients let in over TLS only, and a role that
/// gives its password): what a user types, the output and the exit codes, and no password anywhere in them.
@Suite(.enabled(if: LoopbackPostgresServer.isAvailable, "PostgreSQL or openssl is not installed (make test installs them)"), .timeLimit(.minutes(15)))
struct PostgresTLSCommandTests {
    let server: LoopbackPostgresServer
    let certificates: TestCertificates

    init() throws {
        server = try LoopbackPostgresServer.withTLS.get()
        certificates = try #require(server.certificates)
    }

    @Test func statsOverVerifiedTLSAndEachRefusalWithItsExitCode() async throws {
        let folder = try TemporaryFolder()
        let user = TestPostgresServer.passwordUser
        let password = ["PGPASSWORD": TestPostgresServer.password]
        let database = try server.makeDatabase(owner: user)
        // Generous timeouts: a loaded machine must not turn a slow handshake into "unreachable".
        func address(host: String = "localhost", _ parameters: String) -> String {
            server.address(database: database, user: user, host: host, parameters: parameters + "&connect_timeout=300")
        }
        let verified = address("sslmode=verify-full&sslrootcert=\(certificates.authority)")
        // A catalog made by the catalog itself, over the same verified connection.
        let made = try await PostgresCatalogDatabase.open(address: PostgresAddress(parsing: verified), access: .readWrite, environment: password)
        await made.close()

        func run(_ catalog: String, _ arguments: [String] = ["stats", "--json"], environment: [String: String] = password) async throws -> CLIResult {
            let result = try await CLI.run(["--catalog", catalog] + arguments, in: folder, environment: environment)
            #expect(!result.stdout.contains(TestPostgresServer.password) && !result.stderr.contains(TestPostgresServer.password),
                    "the password was printed: \(result.stdout) \(result.stderr)")
            return result
        }

        let stats = try await run(verified)
        #expect(stats.status == 0, "\(stats.stderr)")
        let json = try #require(stats.json as? [String: Any], "\(stats.stdout)")
        #expect(json["total"] as? Int == 0, "\(stats.stdout)")
        let human = try await run(verified, ["stats"])
        #expect(human.status == 0, "\(human.stderr)")
        // The catalog is shown by its address: the host, and the sslmode asked for.
        #expect(human.stdout.contains("postgres://\(user)@localhost:\(server.port)/\(database)?sslmode=verify-full"), "\(human.stdout)")

        // backup runs pg_dump with the same TLS settings (libpq's variables): it verifies the server as catalog does.
        let backup = try await run(verified, ["backup", folder.path("catalog.dump")])
        #expect(backup.status == 0, "\(backup.stderr)")
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: folder.path("catalog.dump"))).read(upToCount: 5)
        #expect(head == Data("PGDMP".utf8))

        // ~/.postgresql/root.crt is trusted when the URL names no sslrootcert (HOME is the test's folder).
        try FileManager.default.createDirectory(atPath: folder.path(".postgresql"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: certificates.authority, toPath: folder.path(".postgresql/root.crt"))
        let standard = try await run(address("sslmode=verify-full"))
        #expect(standard.status == 0, "\(standard.stderr)")
        try FileManager.default.removeItem(atPath: folder.path(".postgresql"))

        // The certificate names localhost, not 127.0.0.1: verify-full refuses, and says why.
        let mismatch = try await run(address(host: "127.0.0.1", "sslmode=verify-full&sslrootcert=\(certificates.authority)"))
        #expect(mismatch.status == 69, "\(mismatch.stderr)")
        #expect(mismatch.stderr.contains("not valid for the host name 127.0.0.1"), "\(mismatch.stderr)")

        // A certificate from an authority not trusted: 69, naming the file trusted.
        let untrusted = try await run(address("sslmode=verify-ca&sslrootcert=\(certificates.otherAuthority)"))
        #expect(untrusted.status == 69, "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("not signed by an authority trusted"), "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains(certificates.otherAuthority), "\(untrusted.stderr)")

        // Without TLS the server's pg_hba.conf lets nobody in over TCP: refused access, 77, saying TLS is needed.
        let plain = try await run(address("sslmode=disable"))
        #expect(plain.status == 77, "\(plain.stderr)")
        #expect(plain.stderr.contains("only over TLS"), "\(plain.stderr)")

        // A wrong password over verified TLS: 77, and neither password is printed.
        let wrong = try await run(verified, environment: ["PGPASSWORD": "wrong-horse-battery"])
        #expect(wrong.status == 77, "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("wrong-horse-battery") && !wrong.stdout.contains("wrong-horse-battery"))
    }
}
