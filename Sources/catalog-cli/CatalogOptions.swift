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

    /// How long a write waits for another process's lock: $CATALOG_BUSY_TIMEOUT seconds, else 10.
    var busyTimeout: Duration {
        let seconds = ProcessInfo.processInfo.environment["CATALOG_BUSY_TIMEOUT"].flatMap(Double.init)
        guard let seconds, seconds >= 0, seconds < 86_400 else { return .seconds(10) }
        return .milliseconds(Int(seconds * 1000))
    }

    /// Opens the catalog, or prints why not and exits with the matching code. Says so when the open
    /// upgraded the catalog's schema and kept a copy of it.
    func open(_ access: CatalogAccess) throws -> CatalogRepository {
        do {
            let repository = try CatalogRepository(url: location, access: access, busyTimeout: busyTimeout)
            if let copy = repository.preMigrationCopy {
                Diagnostics.report("upgraded the catalog's schema from \(copy.fromVersion) (applied \(copy.appliedMigrations.joined(separator: ", "))); the catalog as it was is kept at \(copy.url.path)")
            }
            return repository
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
