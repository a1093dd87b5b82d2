import ArgumentParser
import Catalog
import Foundation
import Processing

extension CatalogCommand {
    /// `catalog search --color C ...`: stickers by colour, best first.
    struct SearchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Find stickers by colour (and camera, date taken).",
            discussion: """
                C is \(ColorName.accepted). With several --color, every colour must be in the sticker's palette. A palette colour matches when its Oklab ΔE (100 × Euclidean distance in Oklab; about 2 is just noticeable) is at most --within (default \(Int(ColorQuery.defaultWithin))). Each match scores share × (1 − ΔE / within); a sticker scores its weakest colour's, so a mostly-orange sticker comes before one with an orange speck.

                --json prints an array of {"id","path","distance","color","share"} (the match that sets the score); --ids prints one id a line for pipes. Exit 0 also when nothing matches.
                """
        )

        @OptionGroup var catalog: CatalogOptions

        @Option(name: .customLong("color"), help: ArgumentHelp("A colour to look for: #rrggbb, #rgb or a CSS name (repeatable).", valueName: "C"))
        var colors: [String] = []

        @Option(help: ArgumentHelp("Largest Oklab ΔE between a query colour and a palette colour.", valueName: "D"))
        var within: Double = ColorQuery.defaultWithin

        @Option(help: "Results at most.")
        var limit: Int = ColorQuery.defaultLimit

        @Option(help: ArgumentHelp("Only photos whose camera make or model contains S (case-insensitive).", valueName: "S"))
        var camera: String?

        @Option(name: .customLong("taken-after"), help: ArgumentHelp("Only photos taken on or after DATE (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UTC).", valueName: "DATE"))
        var takenAfter: String?

        @Option(name: .customLong("taken-before"), help: ArgumentHelp("Only photos taken before DATE (same forms; a date means its midnight).", valueName: "DATE"))
        var takenBefore: String?

        @Flag(help: "Print a JSON array instead of a table.")
        var json = false

        @Flag(help: "Print only the ids, one a line.")
        var ids = false

        func validate() throws {
            if colors.isEmpty { throw ValidationError("name a colour to look for: --color C, where C is \(ColorName.accepted)") }
            for color in colors where ColorName.parse(color) == nil {
                throw ValidationError("'\(color)' is not a colour: use \(ColorName.accepted)")
            }
            if !(within > 0 && within <= 100) { throw ValidationError("--within must be a ΔE above 0 and at most 100, not \(within)") }
            if !(1...100_000).contains(limit) { throw ValidationError("--limit must be between 1 and 100000, not \(limit)") }
            if json && ids { throw ValidationError("--json and --ids exclude each other") }
            for (name, value) in [("--taken-after", takenAfter), ("--taken-before", takenBefore)] {
                if let value, Self.timeBound(value) == nil {
                    throw ValidationError("\(name) '\(value)' is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UTC)")
                }
            }
        }

        /// The form `taken_at_utc` compares with (see ``ColorQuery/timeBound(_:)``).
        static func timeBound(_ text: String) -> String? { ColorQuery.timeBound(text) }

        func run() async throws {
            let query = ColorQuery(
                colors: colors.compactMap { ColorName.parse($0)?.oklab }, within: within, limit: limit,
                camera: camera, takenAfter: takenAfter.flatMap(Self.timeBound), takenBefore: takenBefore.flatMap(Self.timeBound)
            )
            let repository = try catalog.open(.readOnly)
            let results: [ColorSearchResult]
            do {
                results = try repository.search(query)
            } catch {
                throw Diagnostics.exit(for: error)
            }
            if json {
                Terminal.standardOutput.write(JSONOutput.document(results.map(ColorSearchHit.init)))
            } else if ids {
                Terminal.standardOutput.write(results.map { "\($0.id)\n" }.joined())
            } else if results.isEmpty {
                Terminal.standardOutput.write("No sticker has \(colors.joined(separator: " and ")) within ΔE \(Self.number(within)).\n")
            } else {
                let colored = Terminal.standardOutput.isInteractive
                var table = Table("ID", "COLOR", "ΔE", "SHARE", "PATH")
                for result in results {
                    table.append(
                        "\(result.id)",
                        result.matches.map { Swatch.render(hex: $0.hex, colored: colored, width: 2) }.joined(separator: " "),
                        result.matches.map { String(format: "%.1f", $0.distance) }.joined(separator: " "),
                        result.matches.map { String(format: "%.0f%%", $0.share * 100) }.joined(separator: " "),
                        result.path
                    )
                }
                Terminal.standardOutput.write(table.rendered())
            }
        }

        private static func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }
}
