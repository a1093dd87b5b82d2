import Catalog
import Foundation
import Processing
import Testing

@testable import catalog_cli

/// The exit codes are defined once (`ExitStatus`): every library failure maps to the code scripts rely
/// on, and `--help` and docs/exit-codes.md list the same codes.
@Suite(.timeLimit(.minutes(15))) struct ExitStatusTests {
    @Test func catalogFailuresHaveTheirCodes() {
        let expected: [(CatalogError, Int32)] = [
            (.busy(path: "c"), 75),
            (.unavailable(catalog: "c", reason: "r"), 69),
            (.serverUnreachable(address: "a", server: "s", reason: "r"), 69),
            (.invalidAddress(address: "a", reason: "r"), 64),
            (.accessDenied(address: "a", user: "u", reason: "r"), 77),
            (.databaseMissing(address: "a", database: "d"), 74),
            (.missing(path: "c"), 74), (.readOnly(path: "c", reason: "r"), 74), (.diskFull(path: "c"), 74),
            (.cannotCreate(path: "c", reason: "r"), 74), (.io(path: "c", reason: "r"), 74),
            (.database(path: "c", message: "m"), 74), (.copyRefused(catalog: "c", reason: "r"), 74),
            (.newerCatalog(path: "c", unknownMigrations: []), 65), (.needsMigration(path: "c", pendingMigrations: []), 65),
            (.notACatalog(path: "c", reason: "r"), 65), (.entryNotFound(id: 99), 65),
        ]
        for (error, code) in expected {
            #expect(ExitStatus.of(error).code == code, "\(error)")
        }
    }

    @Test func packExportAndRecutFailuresHaveTheirCodes() {
        #expect(ExitStatus.of(PackError.unknownEntries(ids: [777])).code == 65)
        #expect(ExitStatus.of(PackError.invalidName("x/y", reason: "r")).code == 64)
        #expect(ExitStatus.of(PackError.catalog(.busy(path: "c"))).code == 75)
        #expect(ExitStatus.of(ExportError.doesNotFit([])).code == 65)
        #expect(ExitStatus.of(ExportError.outputExists(path: "p")).code == 74)
        #expect(ExitStatus.of(ExportError.cancelled).code == 130)
        #expect(ExitStatus.of(ExportError.pack(.notFound(name: "p"))).code == 65)
        #expect(ExitStatus.of(RecutError.invalidGuidance(.emptyBox("g"))).code == 64)
        #expect(ExitStatus.of(RecutError.processingFailed(id: 1, .segmentationUnavailable("m"))).code == 69)
        #expect(ExitStatus.of(RecutError.sourceMissing(id: 1, path: "p")).code == 74)
        #expect(ExitStatus.of(RecutError.changedMeanwhile(id: 1)).code == 75)
        #expect(ExitStatus.of(RecutError.catalog(.diskFull(path: "c"))).code == 74)
    }

    @Test func helpListsEveryCode() {
        let help = CatalogCommand.helpMessage()
        for status in ExitStatus.allCases {
            #expect(help.contains(status.codeText), "\(status.name) missing from --help")
        }
    }

    /// docs/exit-codes.md holds the table made from `ExitStatus`; `UPDATE_EXIT_CODES=1` rewrites it.
    @Test func theDocumentedTableIsTheDefinedOne() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/exit-codes.md")
        let text = try String(contentsOf: file, encoding: .utf8)
        let (begin, end) = ("<!-- exit-codes:begin -->", "<!-- exit-codes:end -->")
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else {
            Issue.record("docs/exit-codes.md has no \(begin) ... \(end) markers")
            return
        }
        let documented = text[start.upperBound..<stop.lowerBound].trimmingCharacters(in: .newlines)
        if documented != ExitStatus.markdownTable, ProcessInfo.processInfo.environment["UPDATE_EXIT_CODES"] == "1" {
            let updated = text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: "\n" + ExitStatus.markdownTable + "\n")
            try updated.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            documented == ExitStatus.markdownTable,
            "docs/exit-codes.md differs from ExitStatus (Sources/catalog-cli/Exit); regenerate it with UPDATE_EXIT_CODES=1 swift test --filter ExitStatusTests"
        )
    }
}
