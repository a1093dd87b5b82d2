import Foundation
import PostgresTestSupport
import Testing

/// The `catalog` binary on a `postgres://` catalog (a server of the tests' own): import, search, packs,
/// export, reprocess and verify give what they give on a SQLite catalog of the same photos; a malformed
/// address, refused credentials and an absent server give their exit codes.
@Suite(.enabled(if: TestPostgresServer.isAvailable, "PostgreSQL is not installed (make test installs it)"), .timeLimit(.minutes(15)))
struct PostgresCommandTests {
    let server: TestPostgresServer

    init() throws {
        server = try TestPostgresServer.server
    }

    /// The JSON lines of `search` without the paths' folder (the two catalogs saw the same photos).
    private func results(_ result: CLIResult) -> [String] {
        result.jsonLines.map { line in
            let id = line["id"] as? Int ?? -1
            let score = (line["score"] as? Double).map { String(format: "%.6f", $0) } ?? "?"
            return "\(id) \(score) \((line["path"] as? String).map { ($0 as NSString).lastPathComponent } ?? "")"
        }
    }

    @Test(.needsModel) func everyCommandGivesWhatSQLiteGives() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let postgres = server.address(database: try await server.makeDatabase())
        let sqlite = folder.path("catalog.sqlite")
        for catalog in [sqlite, postgres] {
            // One job: entries get their ids in the same order in both catalogs.
            let imported = try await CLI.run(["--catalog", catalog, "import", photos, "--pack", "demo", "--jobs", "1", "--json"], in: folder)
            #expect(imported.status == 0, "\(catalog): \(imported.stderr)")
        }
        for color in ["#ff8800", "teal", "#3366cc"] {
            let expected = try await CLI.run(["--catalog", sqlite, "search", "--color", color, "--json"], in: folder)
            let actual = try await CLI.run(["--catalog", postgres, "search", "--color", color, "--json"], in: folder)
            #expect(actual.status == expected.status)
            #expect(results(actual) == results(expected), "search \(color)")
        }
        for arguments in [["list", "--json"], ["pack", "show", "demo", "--json"], ["stats", "--json"]] {
            let expected = try await CLI.run(["--catalog", sqlite] + arguments, in: folder)
            let actual = try await CLI.run(["--catalog", postgres] + arguments, in: folder)
            #expect(actual.status == 0, "\(arguments): \(actual.stderr)")
            #expect(actual.status == expected.status)
        }
        // Export: the same PNGs, byte for byte.
        for (name, catalog) in [("sqlite", sqlite), ("postgres", postgres)] {
            let exported = try await CLI.run(["--catalog", catalog, "export", "demo", "--format", "png", "--output", folder.path("out-" + name)], in: folder)
            #expect(exported.status == 0, "\(exported.stderr)")
        }
        let sqliteFiles = try FileManager.default.subpathsOfDirectory(atPath: folder.path("out-sqlite")).sorted()
        let postgresFiles = try FileManager.default.subpathsOfDirectory(atPath: folder.path("out-postgres")).sorted()
        #expect(sqliteFiles == postgresFiles)
        for file in sqliteFiles where file.hasSuffix(".png") {
            #expect(FileManager.default.contentsEqual(atPath: folder.path("out-sqlite/" + file), andPath: folder.path("out-postgres/" + file)), "\(file)")
        }
        // Reprocess with nothing stale does nothing; with --all it re-makes every sticker.
        let reprocess = try await CLI.run(["--catalog", postgres, "reprocess", "--all", "--json"], in: folder)
        #expect(reprocess.status == 0, "\(reprocess.stderr)")
        let verify = try await CLI.run(["--catalog", postgres, "verify", "--json"], in: folder)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect((verify.json as? [String: Any])?["sound"] as? Bool == true)
        // backup runs pg_dump (installed with the server): a custom-format dump pg_restore reads.
        let backup = try await CLI.run(["--catalog", postgres, "backup", folder.path("catalog.dump")], in: folder)
        #expect(backup.status == 0, "\(backup.stderr)")
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: folder.path("catalog.dump"))).read(upToCount: 5)
        #expect(head == Data("PGDMP".utf8))
    }

    @Test func connectionFailuresHaveTheirExitCodes() async throws {
        let folder = try TemporaryFolder()
        let malformed = try await CLI.run(["--catalog", "postgres://u:hunter2@h:99999/db", "list"], in: folder)
        #expect(malformed.status == 64)
        #expect(!malformed.stderr.contains("hunter2"))
        let port = try unusedLoopbackPort()
        let absent = try await CLI.run(["--catalog", "postgres://u@127.0.0.1:\(port)/db?sslmode=disable", "list"], in: folder)
        #expect(absent.status == 69)
        #expect(absent.stderr.contains("127.0.0.1:\(port)"))
        let user = TestPostgresServer.passwordUser
        let database = try await server.makeDatabase(migrated: false, owner: user)
        let refused = try await CLI.run(
            ["--catalog", server.address(database: database, user: user), "list"], in: folder,
            environment: ["PGPASSWORD": "not-the-password"])
        #expect(refused.status == 77)
        #expect(!refused.stderr.contains("not-the-password"))
        let missing = try await CLI.run(["--catalog", server.address(database: "no_such_catalog"), "list"], in: folder)
        #expect(missing.status == 74)
        #expect(missing.stderr.contains("no_such_catalog"))
        // $CATALOG_PATH names a PostgreSQL catalog as --catalog does.
        let viaEnvironment = try await CLI.run(["list"], in: folder, environment: ["CATALOG_PATH": "postgres://u@127.0.0.1:\(port)/db?sslmode=disable"])
        #expect(viaEnvironment.status == 69)
    }
}
