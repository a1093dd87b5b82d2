import Foundation
import Testing

@testable import Catalog

/// `postgres://` addresses read as libpq reads them, and shown without their password.
@Suite(.timeLimit(.minutes(15))) struct PostgresAddressTests {
    let environment = ["USER": "alice"]

    @Test func fullAddress() throws {
        let address = try PostgresAddress(parsing: "postgres://bob@db.example.org:6543/stickers", environment: environment)
        #expect(address.user == "bob")
        #expect(address.host == "db.example.org")
        #expect(address.socketFolder == nil)
        #expect(address.port == 6543)
        #expect(address.database == "stickers")
        #expect(address.sslMode == .prefer)
        #expect(address.description == "postgres://bob@db.example.org:6543/stickers")
        #expect(address.serverDescription == "db.example.org:6543")
    }

    @Test func bothSchemesAndDefaults() throws {
        let address = try PostgresAddress(parsing: "postgresql://db.example.org", environment: environment)
        #expect(address.user == "alice")
        #expect(address.port == 5432)
        #expect(address.database == "alice")
        #expect(PostgresAddress.isPostgresAddress("POSTGRES://x/y"))
        #expect(PostgresAddress.isPostgresAddress("postgresql://x/y"))
        #expect(!PostgresAddress.isPostgresAddress("postgres.sqlite"))
        #expect(!PostgresAddress.isPostgresAddress("./postgres://x"))
        // PGUSER wins over the login name, as for psql.
        let pgUser = try PostgresAddress(parsing: "postgres://h/db", environment: ["PGUSER": "carol", "USER": "alice"])
        #expect(pgUser.user == "carol")
    }

    @Test func noHostIsTheDefaultSocketFolder() throws {
        let address = try PostgresAddress(parsing: "postgres:///stickers", environment: environment)
        #expect(address.host == nil)
        #expect(address.socketFolder == "/var/run/postgresql")
        #expect(address.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
        #expect(address.passwordFileHost == "localhost")
    }

    @Test func socketFolderAsHostParameterOrEncodedHost() throws {
        let parameter = try PostgresAddress(parsing: "postgres://bob@/cat?host=/tmp/pg%20dir&port=5433", environment: environment)
        #expect(parameter.socketFolder == "/tmp/pg dir")
        #expect(parameter.socketPath == "/tmp/pg dir/.s.PGSQL.5433")
        #expect(parameter.passwordFileHost == "/tmp/pg dir")
        #expect(parameter.description == "postgres://bob@:5433/cat?host=/tmp/pg%20dir")
        let encoded = try PostgresAddress(parsing: "postgresql://%2Fvar%2Flib%2Fpostgresql/cat", environment: environment)
        #expect(encoded.socketFolder == "/var/lib/postgresql")
    }

    @Test func percentDecoding() throws {
        let address = try PostgresAddress(parsing: "postgres://j%C3%B6rg%40home@h/st%C3%BCcke", environment: environment)
        #expect(address.user == "jörg@home")
        #expect(address.database == "stücke")
    }

    @Test func ipv6Host() throws {
        let address = try PostgresAddress(parsing: "postgres://u@[::1]:5433/db", environment: environment)
        #expect(address.host == "::1")
        #expect(address.port == 5433)
        #expect(address.description == "postgres://u@[::1]:5433/db")
    }

    @Test(arguments: PostgresSSLMode.allCases)
    func sslModes(mode: PostgresSSLMode) throws {
        let address = try PostgresAddress(parsing: "postgres://u@h/db?sslmode=\(mode.rawValue)", environment: environment)
        #expect(address.sslMode == mode)
    }

    @Test func livenessDefaultsAndLibpqParameters() throws {
        let standard = try PostgresAddress(parsing: "postgres://u@h/db", environment: environment).liveness
        #expect(standard == PostgresLiveness())
        #expect(standard.keepalives && standard.idle == .seconds(30) && standard.interval == .seconds(10))
        #expect(standard.count == 3 && standard.userTimeout == .seconds(60))
        let set = try PostgresAddress(
            parsing: "postgres://u@h/db?keepalives=0&keepalives_idle=5&keepalives_interval=2&keepalives_count=4&tcp_user_timeout=1500",
            environment: environment
        ).liveness
        #expect(set == PostgresLiveness(keepalives: false, idle: .seconds(5), interval: .seconds(2), count: 4, userTimeout: .milliseconds(1500)))
        let off = try PostgresAddress(parsing: "postgres://u@h/db?tcp_user_timeout=0", environment: environment).liveness
        #expect(off.userTimeout == .zero)
    }

    @Test func passwordInTheURLIsKeptButNeverShown() throws {
        let address = try PostgresAddress(parsing: "postgres://bob:hunter2@h:5432/db", environment: environment)
        #expect(address.urlPassword == "hunter2")
        #expect(!address.description.contains("hunter2"))
        #expect(!"\(address)".contains("hunter2"))
        #expect(!String(reflecting: address).contains("hunter2"))
        var dumped = ""
        dump(address, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        let parameter = try PostgresAddress(parsing: "postgres://bob@h/db?password=hunter2", environment: environment)
        #expect(parameter.urlPassword == "hunter2")
        #expect(!parameter.description.contains("hunter2"))
    }

    @Test(arguments: [
        "postgres://u:hunter2@h:99999/db",
        "postgres://u:hunter2@h:port/db",
        "postgres://u:hunter2@h/db?sslmode=sometimes",
        "postgres://u:hunter2@h/db?colour=teal",
        "postgres://u:hunter2@h/db?password=hunter2&sslmode",
        "postgres://u:hunter2@h1,h2/db",
        "postgres://u:hunter2@[::1/db",
        "postgres://u:hunter2@h/d%ZZb",
        "postgres://u:hunter2@h/db?keepalives=yes",
        "postgres://u:hunter2@h/db?keepalives_idle=0",
        "postgres://u:hunter2@h/db?keepalives_count=many",
        "postgres://u:hunter2@h/db?tcp_user_timeout=-1",
    ])
    func malformedAddressesAreUsageErrorsWithoutThePassword(text: String) throws {
        let error = #expect(throws: CatalogError.self) { try PostgresAddress(parsing: text, environment: environment) }
        guard case .invalidAddress(let shown, _)? = error else {
            Issue.record("expected invalidAddress, got \(String(describing: error))")
            return
        }
        #expect(!shown.contains("hunter2"))
        #expect(!message(error).contains("hunter2"))
    }

    @Test func splitsMigrationsIntoStatements() {
        let sql = """
            -- a comment; with a semicolon
            CREATE TABLE t (x TEXT DEFAULT 'a;b'); /* block; */
            CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;
            SELECT 1
            """
        let statements = PostgresMigrations.statements(in: sql)
        #expect(statements.count == 3)
        #expect(statements[0] == "CREATE TABLE t (x TEXT DEFAULT 'a;b')")
        #expect(statements[1].hasSuffix("$body$ SELECT 1; $body$ LANGUAGE sql"))
        #expect(statements[2] == "SELECT 1")
    }

    @Test func postgresMigrationsHaveTheSQLiteVersionNumbers() {
        #expect(PostgresMigrations.identifiers == CatalogMigrations.identifiers)
    }
}

/// The message of `error`, or "" when there is none.
func message(_ error: CatalogError?) -> String {
    guard let error else { return "" }
    return error.errorDescription ?? ""
}
