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

        @Option(
            parsing: .unconditional, help: ArgumentHelp("Largest Oklab ΔE between a query colour and a palette colour (above 0, at most 100).", valueName: "D"),
            transform: OptionValue.decimal("--within", above: 0, atMost: 100)
        )
        var within: Double = ColorQuery.defaultWithin

        @Option(parsing: .unconditional, help: "Results at most (1 to 100000).", transform: OptionValue.whole("--limit", 1...100_000))
        var limit: Int = ColorQuery.defaultLimit

        @Option(help: ArgumentHelp("Only photos whose camera make or model contains S (case-insensitive).", valueName: "S"))
        var camera: String?

        @Option(
            name: .customLong("taken-after"), parsing: .unconditional,
            help: ArgumentHelp("Only photos taken on or after DATE (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UTC).", valueName: "DATE"),
            transform: OptionValue.date("--taken-after")
        )
        var takenAfter: String?

        @Option(
            name: .customLong("taken-before"), parsing: .unconditional,
            help: ArgumentHelp("Only photos taken before DATE (same forms; a date means its midnight).", valueName: "DATE"),
            transform: OptionValue.date("--taken-before")
        )
        var takenBefore: String?

        @OptionGroup var output: OutputOptions

        @Flag(help: "Print only the ids, one a line.")
        var ids = false

        @Flag(help: "One result per group of near-duplicates: the best-matching member (see `catalog duplicates`).")
        var distinct = false

        func validate() throws {
            if colors.isEmpty { throw ValidationError("name a colour to look for: --color C, where C is \(ColorName.accepted)") }
            for color in colors where ColorName.parse(color) == nil {
                throw ValidationError("'\(color)' is not a colour: use \(ColorName.accepted)")
            }
            if !(within > 0 && within <= 100) { throw ValidationError("--within must be a ΔE above 0 and at most 100, not \(within)") }
            if !(1...100_000).contains(limit) { throw ValidationError("--limit must be between 1 and 100000, not \(limit)") }
            if output.json && ids { throw ValidationError("--json and --ids exclude each other") }
        }

        func run() async throws {
            let query = ColorQuery(
                colors: colors.compactMap { ColorName.parse($0)?.oklab }, within: within, limit: limit,
                camera: camera, takenAfter: takenAfter, takenBefore: takenBefore
            )
            let repository = try await catalog.open(.readOnly)
            let results: [ColorSearchResult] = try await Diagnostics.reporting {
                distinct ? try await Self.distinctResults(query, repository) : try await repository.search(query)
            }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(results.map(ColorSearchHit.init)))
            } else if ids {
                Terminal.standardOutput.write(results.map { "\($0.id)\n" }.joined())
            } else if results.isEmpty {
                Terminal.standardOutput.write("No sticker has \(colors.joined(separator: " and ")) within ΔE \(Self.number(within))\(filterWords).\n")
            } else {
                let colored = Terminal.standardOutput.allowsColor
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

        /// The best-matching result of each group of near-duplicates, up to the query's limit: the search
        /// is run for more results until the limit is reached or nothing more matches.
        static func distinctResults(_ query: ColorQuery, _ repository: any CatalogStore) async throws(CatalogError) -> [ColorSearchResult] {
            let groups = try await DistinctEntries.load(repository)
            var wider = query
            while true {
                let found = try await repository.search(wider)
                let distinct = groups.firstOfEachGroup(found, id: \.id)
                if distinct.count >= query.limit || found.count < wider.limit || wider.limit >= 100_000 {
                    return Array(distinct.prefix(query.limit))
                }
                wider.limit = min(100_000, wider.limit * 4)
            }
        }

        /// The other filters that applied, for the "nothing found" line: " from a camera matching
        /// "nikon", taken on or after 2024-06-01".
        private var filterWords: String {
            var words: [String] = []
            if let camera { words.append("from a camera matching \"\(camera)\"") }
            if let takenAfter { words.append("taken on or after \(takenAfter)") }
            if let takenBefore { words.append("taken before \(takenBefore)") }
            return words.isEmpty ? "" : ", " + words.joined(separator: ", ")
        }

        private static func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }
}
