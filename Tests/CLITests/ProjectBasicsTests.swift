import ArgumentParser
import Foundation
import Testing

@testable import Catalog
@testable import catalog_cli

/// What a new user meets first: the licence, the top-level help, counts in plain English, and the
/// command tree named through ArgumentParser's public API.
@Suite struct ProjectBasicsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theLicenceIsApacheTwoEverywhereItIsNamed() throws {
        let licence = try Self.text("LICENSE")
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
        #expect(licence.contains("END OF TERMS AND CONDITIONS"))
        #expect(try Self.text("README.md").contains("[LICENSE](LICENSE)"))
        // The Debian copyright file gives the program itself (`Files: *`) the same licence.
        let copyright = try Self.text("packaging/copyright")
        let program = try #require(copyright.components(separatedBy: "\n\n").first { $0.hasPrefix("Files: *") })
        #expect(program.contains("License: Apache-2.0"), "\(program)")
        #expect(!copyright.contains("none-chosen"))
    }

    @Test func topLevelHelpNamesBothKindsOfCatalog() {
        let help = CatalogCommand.helpMessage(columns: 400)
        #expect(!help.contains("is one SQLite file"))
        #expect(help.contains("SQLite file") && help.contains("PostgreSQL") && help.contains("postgres://"))
    }

    @Test func verifySaysOneOfEachInTheSingular() {
        let sums = CatalogChecksums(
            entries: 1, stickers: 1, paletteColors: 1, packs: 1, packItems: 1, settings: 1, entriesSHA256: "e", packsSHA256: "p")
        let report = VerifyReport(
            entries: 1, paletteColors: 1, paletteIndexChecked: false,
            problems: [.init(check: "palette", id: 1, message: "m")], missingSources: [.init(id: 1, path: "/x.jpg")], checksums: sums)
        let text = CatalogCommand.VerifyCommand.describe(report, path: "c.sqlite")
        #expect(text.contains("Checked     1 entry, 1 palette colour\n"), "\(text)")
        #expect(text.contains("Content     1 entry, 1 sticker, 1 palette colour, 1 pack (1 item), 1 setting\n"), "\(text)")
        #expect(text.contains("Result      1 problem\n"), "\(text)")
        #expect(text.contains("Missing     1 source file (the entries are kept):"), "\(text)")
        for plural in ["entries", "packs", "stickers", "colours", "items", "settings", "(s)"] {
            #expect(!text.contains("1 \(plural)"), "\(text)")
        }
    }

    @Test func countsTakeTheirNounsForm() {
        #expect("\(Counted(0, "pack"))" == "0 packs")
        #expect("\(Counted(1, "pack"))" == "1 pack")
        #expect("\(Counted(2, "pack"))" == "2 packs")
        #expect("\(Counted.entries(1))" == "1 entry")
        #expect("\(Counted.entries(Int64(3)))" == "3 entries")
    }

    /// Every command names itself in its configuration, so the tree can be walked by the public
    /// `CommandConfiguration.commandName`.
    @Test func everyCommandDeclaresItsName() {
        func walk(_ command: any ParsableCommand.Type, path: String) {
            let name = command.configuration.commandName
            #expect(name != nil, "\(path) \(command) does not name itself")
            for sub in command.configuration.subcommands { walk(sub, path: path + " " + (name ?? "?")) }
        }
        walk(CatalogCommand.self, path: "")
    }

    @Test func catalogOptionMovesBehindNestedSubcommands() {
        #expect(GlobalOptionPlacement.movingCatalogOption(["--catalog", "c.sqlite", "pack", "create", "beach"])
            == ["pack", "create", "--catalog", "c.sqlite", "beach"])
        #expect(GlobalOptionPlacement.movingCatalogOption(["--catalog=c.sqlite", "config", "get", "k"]) == ["config", "get", "--catalog=c.sqlite", "k"])
        #expect(CatalogCommand.unknownHelpTopic(["help", "pack", "move"]) == nil)
        #expect(CatalogCommand.unknownHelpTopic(["help", "pack", "nosuch"]) == "nosuch")
    }
}
