import Foundation
import PostgresNIO
import PostgresTestSupport
import Testing

@testable import Catalog

/// `sslmode` against real servers on a loopback port (Tests/PostgresTestSupport/LoopbackPostgresServer): one
/// with `ssl = on`, a certificate for `localhost` signed by a throwaway authority and TCP clients let in over
/// TLS only, and one without TLS. Whether a session is encrypted is asked of the server (`pg_stat_ssl`).
///
/// Every address has a generous connect_timeout: a TLS handshake and a SCRAM exchange on a machine loaded by
/// other builds must not count as an unreachable server.
@Suite(.enabled(if: LoopbackPostgresServer.isAvailable, "PostgreSQL or openssl is not installed (make test installs them)"), .timeLimit(.minutes(15)))
struct PostgresTLSTests {
    let tlsServer: LoopbackPostgresServer
    let plainServer: LoopbackPostgresServer
    let certificates: TestCertificates

    init() throws {
        tlsServer = try LoopbackPostgresServer.withTLS.get()
        plainServer = try LoopbackPostgresServer.plain.get()
        certificates = try #require(tlsServer.certificates)
    }

    /// `parameters` with a connect timeout no loaded machine reaches.
    private func tlsAddress(host: String = "127.0.0.1", user: String = TestPostgresServer.superuser, _ parameters: String) -> String {
        tlsServer.address(user: user, host: host, parameters: parameters + "&connect_timeout=300")
    }

    /// Connects as the catalog does and asks the server whether this session is encrypted.
    private func sessionUsesTLS(_ text: String, environment: [String: String] = [:]) async throws -> Bool {
        let connector = try PostgresConnector(address: PostgresAddress(parsing: text, environment: [:]), environment: environment)
        let connection = try await connector.connect()
        do {
            let rows = try await connection.query(
                "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: PostgresConnector.silentLogger)
            var encrypted: [Bool] = []
            for try await value in rows.decode(Bool.self) { encrypted.append(value) }
            try? await connection.close()
            return try #require(encrypted.first as Bool?, "pg_stat_ssl has no row for this session")
        } catch {
            try? await connection.close()
            throw error
        }
    }

    @Test func requireGivesAnEncryptedSession() async throws {
        #expect(try await sessionUsesTLS(tlsAddress("sslmode=require")))
    }

    @Test func preferAndAllowUseTLSWhenTheServerOffersIt() async throws {
        // prefer is the default: no sslmode at all.
        #expect(try await sessionUsesTLS(tlsServer.address(parameters: "connect_timeout=300")))
        #expect(try await sessionUsesTLS(tlsAddress("sslmode=prefer")))
        #expect(try await sessionUsesTLS(tlsAddress("sslmode=allow")))
    }

    @Test func preferAllowAndDisableConnectPlainToAServerWithoutTLS() async throws {
        for mode in ["prefer", "allow", "disable"] {
            let text = plainServer.address(parameters: "sslmode=\(mode)&connect_timeout=300")
            #expect(try await sessionUsesTLS(text) == false, "sslmode=\(mode)")
        }
    }

    @Test func requireAgainstAServerWithoutTLSIsUnreachable() async throws {
        for mode in ["require", "verify-ca", "verify-full"] {
            let text = plainServer.address(parameters: "sslmode=\(mode)&sslrootcert=\(certificates.authority)&connect_timeout=300")
            let error = await catalogError { try await sessionUsesTLS(text) }
            #expect(error?.caseName == "serverUnreachable", "sslmode=\(mode): \(String(describing: error))")
            #expect(message(error).contains("does not support TLS"), "\(message(error))")
        }
    }

    @Test func disableAgainstAServerThatWantsTLSIsRefusedAccess() async throws {
        let error = await catalogError { try await sessionUsesTLS(tlsAddress("sslmode=disable")) }
        guard case .accessDenied? = error else { Issue.record("expected accessDenied, got \(String(describing: error))"); return }
        #expect(message(error).contains("only over TLS"), "\(message(error))")
        #expect(message(error).contains("sslmode=disable"), "\(message(error))")
        #expect(!message(error).contains("PGPASSWORD"), "no password advice for a pg_hba.conf refusal: \(message(error))")
    }

    @Test func verifyCAWithTheRightAuthorityConnectsByAnyName() async throws {
        // verify-ca checks the signature, not the name: 127.0.0.1 (not in the certificate) is fine.
        #expect(try await sessionUsesTLS(tlsAddress("sslmode=verify-ca&sslrootcert=\(certificates.authority)")))
        #expect(try await sessionUsesTLS(tlsAddress(host: "localhost", "sslmode=verify-ca&sslrootcert=\(certificates.authority)")))
    }

    @Test func anUntrustedCertificateIsRefusedClearly() async throws {
        for mode in ["verify-ca", "verify-full"] {
            let text = tlsAddress(host: "localhost", "sslmode=\(mode)&sslrootcert=\(certificates.otherAuthority)")
            let error = await catalogError { try await sessionUsesTLS(text) }
            guard case .serverUnreachable? = error else { Issue.record("expected serverUnreachable, got \(String(describing: error))"); continue }
            #expect(message(error).contains("not signed by an authority trusted"), "\(message(error))")
            #expect(message(error).contains(certificates.otherAuthority), "names the file trusted: \(message(error))")
        }
    }

    @Test func verifyFullChecksTheHostName() async throws {
        let parameters = "sslmode=verify-full&sslrootcert=\(certificates.authority)"
        #expect(try await sessionUsesTLS(tlsAddress(host: TestCertificates.serverName, parameters)))
        // The certificate names localhost only: the same server reached as 127.0.0.1 is not the one it vouches for.
        let error = await catalogError { try await sessionUsesTLS(tlsAddress(host: "127.0.0.1", parameters)) }
        guard case .serverUnreachable? = error else { Issue.record("expected serverUnreachable, got \(String(describing: error))"); return }
        #expect(message(error).contains("not valid for the host name 127.0.0.1"), "\(message(error))")
    }

    @Test func requireChecksTheCertificateWhenGivenARootCertificate() async throws {
        // As libpq: with a root certificate file, require verifies as verify-ca does.
        #expect(try await sessionUsesTLS(tlsAddress("sslmode=require&sslrootcert=\(certificates.authority)")))
        let error = await catalogError { try await sessionUsesTLS(tlsAddress("sslmode=require&sslrootcert=\(certificates.otherAuthority)")) }
        #expect(error?.caseName == "serverUnreachable")
        #expect(message(error).contains("not signed by an authority trusted"), "\(message(error))")
    }

    @Test func theStandardRootCertificateFileIsTrusted() async throws {
        try await withTemporaryDirectory { home in
            let folder = home.appending(path: ".postgresql")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let standard = folder.appending(path: "root.crt").path
            try FileManager.default.copyItem(atPath: certificates.authority, toPath: standard)
            let environment = ["HOME": home.path]
            #expect(try await sessionUsesTLS(tlsAddress(host: "localhost", "sslmode=verify-full"), environment: environment))
            // The wrong authority there is refused, and the message names the file.
            try FileManager.default.removeItem(atPath: standard)
            try FileManager.default.copyItem(atPath: certificates.otherAuthority, toPath: standard)
            let error = await catalogError { try await sessionUsesTLS(tlsAddress(host: "localhost", "sslmode=verify-full"), environment: environment) }
            #expect(error?.caseName == "serverUnreachable")
            #expect(message(error).contains(standard), "\(message(error))")
            // An explicit sslrootcert wins over the standard file.
            #expect(try await sessionUsesTLS(
                tlsAddress(host: "localhost", "sslmode=verify-full&sslrootcert=\(certificates.authority)"), environment: environment))
        }
    }

    @Test func aRootCertificateFileThatCannotBeReadIsUnreachable() async throws {
        let text = tlsAddress(host: "localhost", "sslmode=verify-full&sslrootcert=/nonexistent/root.crt")
        let error = await catalogError { try await sessionUsesTLS(text) }
        #expect(error?.caseName == "serverUnreachable")
        #expect(message(error).contains("/nonexistent/root.crt"), "\(message(error))")
    }

    @Test func aPasswordWorksOverTLSAndIsNeverShown() async throws {
        let user = TestPostgresServer.passwordUser
        let text = tlsAddress(host: "localhost", user: user, "sslmode=verify-full&sslrootcert=\(certificates.authority)")
        #expect(try await sessionUsesTLS(text, environment: ["PGPASSWORD": TestPostgresServer.password]))
        let error = await catalogError { try await sessionUsesTLS(text, environment: ["PGPASSWORD": "not-the-password"]) }
        guard case .accessDenied? = error else { Issue.record("expected accessDenied, got \(String(describing: error))"); return }
        #expect(!message(error).contains("not-the-password"))
        #expect(!message(error).contains(TestPostgresServer.password))
    }
}
