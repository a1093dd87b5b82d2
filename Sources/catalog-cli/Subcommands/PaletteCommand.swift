import ArgumentParser
import Catalog
import Foundation

extension CatalogCommand {
    /// `catalog palette ID --format gpl|css|json`: a sticker's palette for other tools.
    struct PaletteCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "palette",
            abstract: "Write a sticker's palette as a GIMP/Inkscape palette, CSS custom properties, or JSON.",
            discussion: """
                gpl: a GIMP palette (GIMP, Inkscape, Krita read it). css: a :root rule with --sticker-ID-N custom properties, largest share first. json: {"id","path","colors":[{"hex","rgb":[r,g,b],"share","oklab":[l,a,b]}]}.
                Exit 65 when the entry does not exist or has no palette.
                """
        )

        enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
            case gpl, css, json
        }

        @OptionGroup var catalog: CatalogOptions

        @Argument(help: "The entry's id (see `catalog list`).")
        var id: Int64

        @Option(parsing: .unconditional, help: "gpl, css or json.")
        var format: OutputFormat = .gpl

        func validate() throws {
            if id < 1 { throw ValidationError("an id is a positive number (see `catalog list`)") }
        }

        func run() async throws {
            let entry = try await catalog.requiredEntry(id)
            guard !entry.palette.isEmpty else {
                Diagnostics.report("error: entry \(id) (\(entry.path)) has no palette: \(entry.sticker == nil ? "it has no sticker" : "it was made before palettes were computed")")
                throw ExitCode(.dataError)
            }
            Terminal.standardOutput.write(PaletteExport.render(entry, as: format))
        }
    }
}
