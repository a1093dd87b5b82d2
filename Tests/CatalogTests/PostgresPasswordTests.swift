import Foundation
import Testing

@testable import Catalog

#if canImport(Glibc)
import Glibc
#endif

/// The password comes from the URL, else `PGPASSWORD`, else the password file, with libpq's rules.
@Suite(.timeLimit(.minutes(15))) struct PostgresPasswordTests {
    let address = try! PostgresAddress(parsing: "postgres://bob@db.example.org:5433/stickers", environment: [:])

    @Test func firstMatchingLineWins() {
        let file = """
            # comment:*:*:*:nope
            other.host:5433:stickers:bob:wrong-host
            db.example.org:5432:stickers:bob:wrong-port
            db.example.org:5433:*:bob:first
            *:*:*:*:catch-all
            """
        #expect(PasswordFile.password(in: file, host: "db.example.org", port: "5433", database: "stickers", user: "bob") == "first")
        #expect(PasswordFile.password(in: file, host: "else", port: "1", database: "x", user: "y") == "catch-all")
        #expect(PasswordFile.password(in: "h:1:d:u:", host: "h", port: "1", database: "d", user: "u") == "")
        // A line must have its fifth field: without the ':' after the user name it matches nothing (as libpq).
        #expect(PasswordFile.password(in: "h:1:d:u", host: "h", port: "1", database: "d", user: "u") == nil)
    }

    @Test func escapedColonsAndBackslashes() {
        let file = #"my\:host:5432:db\\x:bob:pa\:ss\\word:ignored"#
        #expect(PasswordFile.password(in: file, host: "my:host", port: "5432", database: #"db\x"#, user: "bob") == #"pa:ss\word"#)
        #expect(PasswordFile.password(in: file, host: "my", port: "5432", database: #"db\x"#, user: "bob") == nil)
    }

    @Test func wildcardOnlyAsWholeField() {
        let file = "db*:*:*:*:prefix\n*:*:*:*:star"
        #expect(PasswordFile.password(in: file, host: "dbx", port: "1", database: "d", user: "u") == "star")
    }

    @Test func urlThenEnvironmentThenFile() throws {
        try withTemporaryDirectory { folder in
            let file = folder.appending(path: "pgpass").path
            try "*:*:*:bob:from-file\n".write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o600)
            #expect(PostgresPassword.lookup(for: address, environment: ["PGPASSFILE": file]).password == "from-file")
            #expect(PostgresPassword.lookup(for: address, environment: ["PGPASSFILE": file, "PGPASSWORD": "from-env"]).password == "from-env")
            let withURLPassword = try PostgresAddress(parsing: "postgres://bob:from-url@db.example.org:5433/stickers", environment: [:])
            #expect(PostgresPassword.lookup(for: withURLPassword, environment: ["PGPASSWORD": "from-env"]).password == "from-url")
            // ~/.pgpass when PGPASSFILE is unset.
            try FileManager.default.copyItem(atPath: file, toPath: folder.appending(path: ".pgpass").path)
            #expect(PostgresPassword.lookup(for: address, environment: ["HOME": folder.path]).password == "from-file")
        }
    }

    @Test func fileReadableByOthersIsIgnoredWithAWarning() throws {
        try withTemporaryDirectory { folder in
            let file = folder.appending(path: "pgpass").path
            try "*:*:*:*:secret\n".write(toFile: file, atomically: true, encoding: .utf8)
            for mode: mode_t in [0o640, 0o604, 0o620] {
                chmod(file, mode)
                let lookup = PostgresPassword.lookup(for: address, environment: ["PGPASSFILE": file])
                #expect(lookup.password == nil)
                #expect(lookup.warning?.contains("group or world access") == true)
                #expect(lookup.warning?.contains("secret") == false)
            }
            chmod(file, 0o400)
            #expect(PostgresPassword.lookup(for: address, environment: ["PGPASSFILE": file]).password == "secret")
            let notAFile = PostgresPassword.lookup(for: address, environment: ["PGPASSFILE": folder.path])
            #expect(notAFile.password == nil)
            #expect(notAFile.warning?.contains("not a plain file") == true)
            #expect(PostgresPassword.lookup(for: address, environment: ["PGPASSFILE": folder.path + "/none"]).password == nil)
        }
    }

    @Test func socketConnectionsMatchTheirFolderOrLocalhost() throws {
        let own = try PostgresAddress(parsing: "postgres://bob@/db?host=/tmp/pg", environment: [:])
        let standard = try PostgresAddress(parsing: "postgres://bob@/db", environment: [:])
        #expect(own.passwordFileHost == "/tmp/pg")
        #expect(standard.passwordFileHost == "localhost")
    }
}

/// `withTemporaryDirectory` for synchronous bodies.
private func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appending(path: "pgpass-tests-\(UUID().uuidString)", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory)
}
