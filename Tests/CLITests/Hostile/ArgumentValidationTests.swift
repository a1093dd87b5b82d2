import Foundation
import Testing

/// Paths, option values and environment variables scripts get wrong: usage errors (64) that say what
/// is accepted, raised before any catalog is opened (so a missing catalog does not change the answer).
@Suite(.timeLimit(.minutes(15))) struct ArgumentValidationTests {
    /// Every option that takes a date, a number or an enumeration, with a bad value each: the
    /// command, and a piece of the message. The catalog does not exist: 64 all the same.
    static let badValues: [([String], String)] = [
        (["search", "--color", "orange", "--taken-after", "2024-13-45"], "--taken-after '2024-13-45' is not a date: use YYYY-MM-DD"),
        (["search", "--color", "orange", "--taken-before", "2023-02-29"], "--taken-before '2023-02-29' is not a date"),
        (["search", "--color", "orange", "--taken-after", "2024-06-01T25:00"], "is not a date"),
        (["search", "--color", "orange", "--within", "-5"], "--within must be a number above 0"),
        (["search", "--color", "orange", "--within", "abc"], "--within must be a number above 0"),
        (["search", "--color", "orange", "--limit", "-1"], "--limit must be a whole number from 1 to 100000, not '-1'"),
        (["search", "--color", "orange", "--limit", "ten"], "--limit must be a whole number"),
        (["search", "--color", "notacolour"], "'notacolour' is not a colour"),
        (["import", ".", "--jobs", "-2"], "--jobs must be a whole number from 1 to 256, not '-2'"),
        (["import", ".", "--jobs", "0"], "--jobs must be a whole number from 1 to 256"),
        (["import", ".", "--colors", "-3"], "--colors must be a whole number from 1 to 16"),
        (["import", ".", "--max-pixels", "-1"], "--max-pixels must be a whole number ≥ 1"),
        (["reprocess", "--jobs", "-1"], "--jobs must be a whole number from 1 to 256"),
        (["cutout", "in.jpg", "-o", "out.png", "--outline", "-1"], "--outline must be a whole number from 0 to 64"),
        (["cutout", "in.jpg", "-o", "out.png", "--size", "-512"], "--size must be a whole number from 16 to 4096"),
        (["cutout", "in.jpg", "-o", "out.png", "--max-pixels", "0"], "--max-pixels must be a whole number ≥ 1"),
        (["export", "p", "--imessage-size", "-408"], "--imessage-size must be one of 300, 408, 618"),
        (["export", "p", "--format", "-x"], "'-x' is invalid for '--format"),
        (["export", "p", "--format", "gif"], "'gif' is invalid for '--format"),
        (["preview", "p", "-o", "s.png", "--columns", "-1"], "--columns must be a whole number from 1 to 64"),
        (["palette", "1", "--format", "ase"], "'ase' is invalid for '--format"),
        (["pack", "move", "p", "1", "--to", "-1"], "--to must be a whole number ≥ 1"),
    ]

    @Test(arguments: badValues)
    func aBadOptionValueIsAUsageErrorBeforeTheCatalogIsOpened(arguments: [String], message: String) async throws {
        let folder = try TemporaryFolder()
        let before = TreeRecord(folder)
        let run = try await CLI.run(["--catalog", "missing.sqlite"] + arguments, in: folder)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        #expect(!run.stderr.contains("Missing value"))
        #expect(TreeRecord(folder) == before)
        #expect(!FileManager.default.fileExists(atPath: folder.path("missing.sqlite")))
    }

    /// Empty paths from unset script variables never mean "the current folder" or "the default catalog".
    @Test(arguments: [
        ["import", ""],
        ["--catalog", "", "list"],
        ["list", "--catalog", ""],
        ["cutout", "", "-o", "x.png"],
        ["cutout", "in.jpg", "-o", ""],
        ["backup", ""],
        ["export", "p", "-o", ""],
        ["preview", "p", "-o", ""],
    ])
    func anEmptyPathIsAUsageError(arguments: [String]) async throws {
        let folder = try TemporaryFolder()
        try folder.write(Hostile.photo(), to: "photo.jpg")
        let before = TreeRecord(folder)
        let run = try await CLI.run(arguments, in: folder, environment: Hostile.fastImport)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains("empty") || run.stderr.contains("''"), "\(arguments): \(run.stderr)")
        #expect(TreeRecord(folder) == before)
        // The default catalog was not made either.
        #expect(!FileManager.default.fileExists(atPath: folder.path(".local/share/sticker-catalog/catalog.sqlite")))
    }

    @Test func anEmptyCatalogPathVariableIsAUsageError() async throws {
        let folder = try TemporaryFolder()
        let run = try await CLI.run(["list"], in: folder, environment: ["CATALOG_PATH": ""])
        #expect(run.status == 64)
        #expect(run.stderr.contains("CATALOG_PATH"))
    }

    @Test(arguments: ["abc", "-1", "1e400", ""])
    func aMalformedBusyTimeoutNamesTheVariable(value: String) async throws {
        let folder = try TemporaryFolder()
        let run = try await CLI.run(["--catalog", "c.sqlite", "list"], in: folder, environment: ["CATALOG_BUSY_TIMEOUT": value])
        #expect(run.status == 64, "\(value): \(run.stderr)")
        #expect(run.stderr.contains("CATALOG_BUSY_TIMEOUT"), "\(run.stderr)")
    }

    @Test func anExplicitCatalogInAMissingFolderIsRefused() async throws {
        let folder = try TemporaryFolder()
        let run = try await CLI.run(["--catalog", "nosuch/c.sqlite", "pack", "create", "p"], in: folder)
        #expect(run.status == 74)
        #expect(run.stderr.contains("no such folder"), "\(run.stderr)")
        #expect(run.stderr.contains("nosuch"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("nosuch")))
        // The default location is still made as needed.
        let made = try await CLI.run(["pack", "create", "p"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path(".local/share/sticker-catalog/catalog.sqlite")))
    }

    @Test func aZeroByteCatalogIsDescribedTruthfully() async throws {
        let folder = try TemporaryFolder()
        try folder.write([], to: "c.sqlite")
        let run = try await CLI.run(["--catalog", "c.sqlite", "list"], in: folder)
        #expect(run.status == 65)
        #expect(run.stderr.contains("empty file (0 bytes)"), "\(run.stderr)")
        #expect(!run.stderr.contains("older schema"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("c.sqlite"))).isEmpty)
    }

    @Test func helpForAnUnknownCommandIsAUsageError() async throws {
        let folder = try TemporaryFolder()
        let run = try await CLI.run(["help", "nosuchcommand"], in: folder)
        #expect(run.status == 64, "\(run.stdout) \(run.stderr)")
        let known = try await CLI.run(["help", "import"], in: folder)
        #expect(known.status == 0)
    }

    /// No Foundation error domain or code reaches the user, whatever the I/O problem.
    @Test func ioErrorsAreInPlainWords() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("adir"), withIntermediateDirectories: false)
        let runs = [
            try await CLI.run(["cutout", folder.path("adir"), "-o", "x.png"], in: folder),
            try await CLI.run(["cutout", folder.path("nothing.jpg"), "-o", "x.png"], in: folder),
            try await CLI.run(["cutout", "x.jpg", "-o", folder.path("nosuch/x.png")], in: folder),
            try await CLI.run(["--catalog", folder.path("adir"), "list"], in: folder),
        ]
        for run in runs {
            #expect(run.status == 74 || run.status == 65, "\(run.stderr)")
            #expect(!run.stderr.contains("Domain"), "\(run.stderr)")
            #expect(!run.stderr.contains("error 2"), "\(run.stderr)")
        }
        #expect(runs[0].stderr.contains("is a folder"), "\(runs[0].stderr)")
        #expect(runs[1].stderr.contains("no such file"), "\(runs[1].stderr)")
        #expect(runs[2].stderr.contains("no such folder"), "\(runs[2].stderr)")
    }
}
