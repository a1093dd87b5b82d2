import ArgumentParser
import Catalog
import Foundation

/// The `--catalog` option shared by every subcommand, and opening the catalog it names.
struct CatalogOptions: ParsableArguments {
    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp("The catalog file.", discussion: "Default: $CATALOG_PATH, else $XDG_DATA_HOME/sticker-catalog/catalog.sqlite.", valueName: "path")
    )
    var path: String?

    var location: URL {
        CatalogLocation.resolve(explicitPath: path, environment: ProcessInfo.processInfo.environment)
    }

    /// Opens the catalog, or prints why not and exits with the matching code.
    func open(_ access: CatalogAccess) throws -> CatalogRepository {
        do {
            return try CatalogRepository(url: location, access: access)
        } catch {
            throw Diagnostics.exit(for: error)
        }
    }
}

/// The `--json` flag shared by commands that print data.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of a table (see README: JSON contract).")
    var json = false
}
