import Foundation
import Processing
import Testing

/// Colour and progress only where a person is watching: swatches on a colour terminal (never with
/// NO_COLOR, TERM=dumb or into a pipe), progress bars on a terminal unless --quiet; and --version.
@Suite(.timeLimit(.minutes(15))) struct TerminalOutputTests {
    private static let swatch = "\u{1B}[48;2;"
    private static let clearLine = "\u{1B}[2K"

    @Test func versionNamesTheProgramAndPipelineVersions() async throws {
        let folder = try TemporaryFolder()
        let run = try await CLI.run(["--version"], in: folder)
        #expect(run.status == 0)
        // The first line alone is what the package takes; the second says the cut-out's path here.
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let version = lines.first ?? ""
        #expect(version.wholeMatch(of: /\d+\.\d+\.\d+ \(pipeline \d+\)/) != nil, "\(version)")
        #expect(version.hasSuffix("(pipeline \(PhotoProcessor.pipelineVersion))"))
        #expect(lines.count == 2 && lines[1].hasPrefix("cut-out: "), "\(lines)")
    }

    @Test(.needsModel) func importShowsProgressOnATerminalUnlessQuiet() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let loud = try await CLI.runInTerminal(["--catalog", "a.sqlite", "import", photos, "--jobs", "1"], in: folder)
        #expect(loud.status == 0, "\(loud.screen)")
        #expect(loud.screen.contains("importing") && loud.screen.contains(Self.clearLine), "a progress bar: \(loud.screen)")
        #expect(loud.screen.contains("Imported "))

        let quiet = try await CLI.runInTerminal(["--catalog", "b.sqlite", "import", photos, "--jobs", "1", "--quiet"], in: folder)
        #expect(quiet.status == 0, "\(quiet.screen)")
        #expect(quiet.screen.isEmpty, "--quiet prints nothing when all goes well: \(quiet.screen.debugDescription)")

        // Problems are still reported; a pipe gets no summary either.
        try folder.write(Array("not a photo".utf8), to: "broken/x.jpg")
        let failing = try await CLI.run(["--catalog", "b.sqlite", "import", folder.path("broken"), "-q"], in: folder)
        #expect(failing.status == 65)
        #expect(failing.stdout.isEmpty)
        #expect(failing.stderr.contains("x.jpg"), "\(failing.stderr)")
    }

    @Test(.needsModel) func reprocessShowsProgressOnATerminalUnlessQuiet() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--jobs", "1"], in: folder).status == 0)
        let loud = try await CLI.runInTerminal(["--catalog", "c.sqlite", "reprocess", "--all", "--jobs", "1"], in: folder)
        #expect(loud.status == 0, "\(loud.screen)")
        #expect(loud.screen.contains("reprocessing") && loud.screen.contains("Reprocessed "), "\(loud.screen)")
        let quiet = try await CLI.runInTerminal(["--catalog", "c.sqlite", "reprocess", "--all", "--jobs", "1", "--quiet"], in: folder)
        #expect(quiet.status == 0, "\(quiet.screen)")
        #expect(quiet.screen.isEmpty, "\(quiet.screen.debugDescription)")
    }

    @Test(.needsModel) func swatchesOnlyOnAColourTerminal() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--jobs", "1"], in: folder).status == 0)
        for command in [["show", "1"], ["search", "--color", "orange"]] {
            let arguments = ["--catalog", "c.sqlite"] + command
            let colour = try await CLI.runInTerminal(arguments, in: folder)
            #expect(colour.status == 0, "\(colour.screen)")
            #expect(colour.screen.contains(Self.swatch), "\(command): swatches on a terminal")
            for environment in [["NO_COLOR": "1"], ["TERM": "dumb"]] {
                let plain = try await CLI.runInTerminal(arguments, in: folder, environment: environment)
                #expect(plain.status == 0)
                #expect(!plain.screen.contains("\u{1B}["), "\(command) with \(environment): no escapes")
                #expect(plain.screen.contains("#"), "the colours still appear as hex")
            }
            // NO_COLOR set but empty does not count (https://no-color.org).
            #expect(try await CLI.runInTerminal(arguments, in: folder, environment: ["NO_COLOR": ""]).screen.contains(Self.swatch))
            let piped = try await CLI.run(arguments, in: folder)
            #expect(piped.status == 0)
            #expect(!piped.stdout.contains("\u{1B}["), "\(command) into a pipe: no escapes")
        }
    }
}
