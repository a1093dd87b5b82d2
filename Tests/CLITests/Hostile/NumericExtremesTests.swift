import Foundation
import Testing

/// Every number the CLI takes at its extremes (Int.min, Int.max, one past each, ±2^53, 1e308, -0, NaN,
/// infinity): a usage error (64) that names the option or the value, never a trap (132, a core dump).
@Suite(.timeLimit(.minutes(15))) struct NumericExtremesTests {
    static let extremes = [
        "-9223372036854775808", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "9007199254740992", "-9007199254740992", "1e308", "-1e308", "nan", "inf", "-0",
    ]

    /// Boxes and points whose sums leave Int, or that are not whole numbers at all.
    static func guidance(_ number: String) -> [[String]] {
        [
            ["--box", "\(number),0,1,1"], ["--box", "0,\(number),1,1"],
            ["--box", "1,0,\(number),1"], ["--box", "0,1,1,\(number)"],
            ["--include", "\(number),0"], ["--exclude", "0,\(number)"],
        ]
    }

    static let noModel = ["STICKER_MODEL_DIR": "/nonexistent-model-folder"]

    @Test(arguments: extremes)
    func cutoutGuidanceAtTheExtremesIsAUsageError(number: String) async throws {
        let folder = try TemporaryFolder()
        try folder.write(Hostile.photo(), to: "photo.jpg")
        for options in Self.guidance(number) + [["--box", "9223372036854775807,9223372036854775807,9223372036854775807,9223372036854775807"]] {
            let run = try await CLI.run(["cutout", "photo.jpg", "-o", "out.png"] + options, in: folder, environment: Self.noModel)
            // -0 is 0: a box at the edge, or a point on the photo, which then needs the model (69).
            if number == "-0", run.status == 69 { continue }
            #expect(run.status == 64, "\(options): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("invalid"), "\(options): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("out.png")))
        }
    }

    /// The options that take numbers, each at every extreme; the catalog does not exist (checked first).
    /// `--max-pixels` and `pack move --to` take any Int from 1 up, so only their low extremes are refused.
    static let numericOptions: [[String]] = [
        ["search", "--color", "red", "--limit"], ["search", "--color", "red", "--within"],
        ["import", ".", "--jobs"], ["import", ".", "--colors"],
        ["import", ".", "--max-frames"], ["import", ".", "--clip"],
        ["cutout", "in.jpg", "-o", "out.png", "--size"], ["cutout", "in.jpg", "-o", "out.png", "--outline"],
        ["export", "p", "--imessage-size"], ["preview", "p", "-o", "s.png", "--columns"],
        ["duplicates", "--within"], ["copy", "--to", "other.sqlite", "--batch-size"],
        ["work", "--lease"], ["work", "--reconnect-for"],
    ]

    @Test(arguments: numericOptions)
    func numericOptionsAtTheExtremesAreUsageErrors(option: [String]) async throws {
        let folder = try TemporaryFolder()
        for number in Self.extremes {
            // -0 is 0, which an outline or a distance of duplicates may be.
            if number == "-0", ["--outline", "--within"].contains(option.last ?? ""), option.first != "search" { continue }
            let values = option.last == "--clip" ? ["\(number),1", "0,\(number)"] : [number]
            for value in values {
                let run = try await CLI.run(["--catalog", "missing.sqlite"] + option + [value], in: folder)
                #expect(run.status == 64, "\(option) \(value): \(run.status) \(run.stderr)")
                #expect(run.stderr.contains(option.last!) || run.stderr.contains(value), "\(option) \(value): \(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: folder.path("missing.sqlite")))
            }
        }
    }

    @Test func recutGuidanceAtTheExtremesIsAUsageErrorAndNothingChanges() async throws {
        let folder = try TemporaryFolder()
        try folder.write(Hostile.photo(), to: "photos/photo.jpg")
        try #require(try await CLI.run(["--catalog", "c.sqlite", "import", "photos"], in: folder, environment: Hostile.fastImport).status == 0)
        let before = try await CLI.run(["--catalog", "c.sqlite", "show", "1", "--json"], in: folder).stdout
        for number in Self.extremes where number != "-0" {
            for options in Self.guidance(number) {
                let run = try await CLI.run(["--catalog", "c.sqlite", "recut", "1"] + options, in: folder, environment: Hostile.fastImport)
                #expect(run.status == 64, "\(options): \(run.status) \(run.stderr)")
                #expect(run.stderr.contains("invalid") || run.stderr.contains("outside the photo"), "\(options): \(run.stderr)")
            }
        }
        #expect(try await CLI.run(["--catalog", "c.sqlite", "show", "1", "--json"], in: folder).stdout == before)
    }
}
