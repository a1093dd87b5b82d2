import Foundation
import TestProcessSupport
import Testing

/// Small things scripts and people trip over: aligned tables with colour swatches, `null` for absent
/// values, "nothing found" naming its filters, and a long reprocess whose stdout closes.
@Suite(.timeLimit(.minutes(15))) struct ScriptFacingOutputTests {
    private func catalogWithStickers(_ count: Int, in folder: TemporaryFolder) async throws {
        let photos = try Reliability.writeVariants(count, in: folder)
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--pack", "p"], in: folder, environment: Hostile.fastImport)
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// On a terminal (a pseudo-terminal made by script(1)) the swatches are drawn, and the columns after them still line up.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func tableColumnsStayAlignedWithSwatches() async throws {
        let folder = try TemporaryFolder()
        try await catalogWithStickers(3, in: folder)
        let process = WatchedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "'\(CLI.binary.path)' --catalog c.sqlite search --color '#808080' --within 100", "/dev/null"]
        process.currentDirectoryURL = folder.url
        process.environment = CLI.environment(in: folder, adding: ["TERM": "xterm-256color"])
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = await out.fileHandleForReading.readUntilClosed()
        await process.exited()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\u{1B}[48;2;"), "swatches are drawn on a terminal: \(text)")
        let shown = text.replacing(/\x{1B}\[[0-9;]*[A-Za-z]/, with: "").replacingOccurrences(of: "\r", with: "")
        let lines = shown.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        let header = try #require(lines.first { $0.hasPrefix("ID") })
        let pathColumn = try #require(header.range(of: "PATH")).lowerBound.utf16Offset(in: header)
        let rows = lines.filter { $0.contains("/many/") }
        #expect(!rows.isEmpty, "\(shown)")
        for row in rows {
            let start = try #require(row.range(of: "/")).lowerBound.utf16Offset(in: row)
            #expect(start == pathColumn, "misaligned row: \(row) under \(header)")
        }
    }

    @Test func aPackWithoutAnAuthorHasANullAuthor() async throws {
        let folder = try TemporaryFolder()
        #expect(try await CLI.run(["--catalog", "c.sqlite", "pack", "create", "p"], in: folder).status == 0)
        let list = try #require(try await CLI.run(["--catalog", "c.sqlite", "pack", "list", "--json"], in: folder).json as? [[String: Any]])
        #expect(list.first?["author"] is NSNull)
        let show = try #require(try await CLI.run(["--catalog", "c.sqlite", "pack", "show", "p", "--json"], in: folder).json as? [String: Any])
        #expect(show["author"] is NSNull)
    }

    @Test func nothingFoundNamesTheFilters() async throws {
        let folder = try TemporaryFolder()
        try await catalogWithStickers(1, in: folder)
        let run = try await CLI.run(
            ["--catalog", "c.sqlite", "search", "--color", "orange", "--camera", "nikon", "--taken-after", "2024-06-01"], in: folder
        )
        #expect(run.status == 0)
        #expect(run.stdout.contains("orange") && run.stdout.contains("\"nikon\"") && run.stdout.contains("2024-06-01"), "\(run.stdout)")
    }

    /// A long reprocess whose stdout closes stops like on SIGINT: finished entries kept, stderr says so.
    @Test func aClosedPipeStopsALongReprocess() async throws {
        let folder = try TemporaryFolder()
        try await catalogWithStickers(6, in: folder)
        let run = try await Hostile.runWithClosedPipe(
            ["--catalog", "c.sqlite", "reprocess", "--all", "--json", "--jobs", "1"], in: folder, environment: Hostile.fastImport
        )
        #expect(run.status == 141, "\(run.stderr)")
        #expect(run.stderr.contains("standard output failed (closed pipe): stopped"), "\(run.stderr)")
        try await Hostile.expectSound("c.sqlite", in: folder)
        let list = try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder)
        #expect((list.json as? [[String: Any]])?.allSatisfy { $0["status"] as? String == "ok" } == true)
    }
}
