import Foundation
import Testing

/// Catalogs a command must not (or cannot) write: reads work, writes refuse up front, nothing changes.
@Suite(.needsModel, .timeLimit(.minutes(15))) struct RefusalTests {
    private static let nobody: UInt32 = 65534

    /// Runs the binary as a user without write access: as `nobody` through setpriv when the tests run as
    /// root (root ignores file permissions), else as ourselves.
    private func runUnprivileged(_ arguments: [String], in folder: TemporaryFolder) async throws -> CLIResult {
        guard getuid() == 0 else { return try await CLI.run(arguments, in: folder) }
        return try await CLI.run(
            ["--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", CLI.binary.path] + arguments,
            in: folder, environment: CLI.environment(in: folder),
            executable: URL(fileURLWithPath: "/usr/bin/setpriv")
        )
    }

    private func digest(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private static let canDropPrivileges = getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    @Test(.enabled(if: canDropPrivileges, "runs as root without setpriv"), arguments: ["file", "folder"])
    func readOnlyCatalogReadsButRefusesWrites(what: String) async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(3, in: folder)
        // An explicit --catalog must be in a folder that exists (a typo is never created).
        try FileManager.default.createDirectory(atPath: folder.path("db"), withIntermediateDirectories: false)
        try #require(try await CLI.run(["--catalog", "db/c.sqlite", "import", photos], in: folder).status == 0)
        let catalog = folder.path("db/c.sqlite")
        try #require(!FileManager.default.fileExists(atPath: catalog + "-wal"))
        chmod(folder.url.path, 0o777)
        chmod(catalog, 0o444)
        chmod(folder.path("db"), what == "folder" ? 0o555 : 0o777)
        defer { chmod(folder.path("db"), 0o755); chmod(catalog, 0o644) }
        let before = try digest(catalog)

        for arguments in [["list"], ["stats"], ["show", "1"], ["verify"]] {
            let run = try await runUnprivileged(["--catalog", catalog] + arguments, in: folder)
            #expect(run.status == 0, "\(what) \(arguments): \(run.stderr)")
        }
        let backup = try await runUnprivileged(["--catalog", catalog, "backup", folder.path("copy.sqlite")], in: folder)
        #expect(backup.status == 0, "\(what): \(backup.stderr)")

        try Reliability.writeVariants(2, in: folder, to: "more", first: 10)
        let write = try await runUnprivileged(["--catalog", catalog, "import", folder.path("more"), "--json"], in: folder)
        #expect(write.status == 74, "\(what): \(write.stderr)")
        #expect(write.stderr.contains("cannot be written"), "\(write.stderr)")
        #expect(write.stdout.isEmpty, "refused before any file was processed")
        #expect(try digest(catalog) == before)
    }

    @Test func newerAndForeignCatalogsAreRefusedByEveryCommandUntouched() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(2, in: folder)
        try #require(try await CLI.run(["--catalog", "new.sqlite", "import", photos], in: folder).status == 0)
        try #require(try await Reliability.sql(folder.path("new.sqlite"), "INSERT INTO grdb_migrations VALUES ('9999_from_the_future')"))
        try folder.write(Array(repeating: 0x41, count: 5000), to: "text.sqlite")
        try #require(try await Reliability.sql(folder.path("other.sqlite"), "CREATE TABLE t (x); INSERT INTO t VALUES (1)"))

        for name in ["new.sqlite", "text.sqlite", "other.sqlite"] {
            let before = try digest(folder.path(name))
            for arguments in [["import", photos], ["verify"], ["backup", "b-\(name)"], ["list"]] {
                let run = try await CLI.run(["--catalog", name] + arguments, in: folder)
                #expect(run.status == 65, "\(name) \(arguments): \(run.stderr)")
                #expect(run.stderr.contains(name), "\(name) \(arguments): \(run.stderr)")
            }
            #expect(try digest(folder.path(name)) == before, "\(name) untouched")
            #expect(!FileManager.default.fileExists(atPath: folder.path("b-\(name)")))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("text.sqlite-wal")))
    }

    @Test func missingCatalogOrFolderCreatesNothing() async throws {
        let folder = try TemporaryFolder()
        for arguments in [["verify"], ["backup", "b.sqlite"]] {
            let run = try await CLI.run(["--catalog", "absent/c.sqlite"] + arguments, in: folder)
            #expect(run.status == 74, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("absent/c.sqlite"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("absent")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("b.sqlite")))
        // A photo folder that does not exist is named; nothing is imported.
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", folder.path("no-such-folder")], in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains("no-such-folder"), "\(run.stderr)")
    }
}
