import ArgumentParser
import Catalog
import Foundation

/// The `--catalog` option shared by every subcommand, and opening the catalog it names.
struct CatalogOptions: ParsableArguments {
    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp(
            "The catalog: a SQLite file, or a postgres:// URL.", discussion: "Default: $CATALOG_PATH, else $XDG_DATA_HOME/sticker-catalog/catalog.sqlite.",
            valueName: "path")
    )
    var path: String?

    /// The catalog these options name: a SQLite file, or a PostgreSQL URL.
    var address: CatalogAddress { CatalogEnvironment.current.catalogAddress(explicitPath: path) }

    /// The catalog as messages name it (a path, or a URL without its password).
    var displayName: String { address.displayName }

    /// Whether the catalog may exist already: a SQLite file that is there, or any server catalog (its
    /// server answers that when it is opened).
    var mayExist: Bool {
        guard let file = address.fileURL else { return true }
        return FileManager.default.fileExists(atPath: file.path)
    }

    /// How the catalog is opened ($CATALOG_BUSY_TIMEOUT; a malformed value is refused by ``validate()``).
    var storeOptions: CatalogStoreOptions {
        (try? CatalogEnvironment.current.storeOptions()) ?? CatalogStoreOptions()
    }

    /// Checked before anything is opened: an empty --catalog or $CATALOG_PATH (an unset script
    /// variable) is a usage error, never the default catalog; a malformed $CATALOG_BUSY_TIMEOUT too.
    func validate() throws {
        if path == "" { throw ValidationError("--catalog '' names no file (an unset variable?); name the catalog file, or leave --catalog out for the default") }
        if CatalogEnvironment.current.isSetButEmpty("CATALOG_PATH") {
            throw ValidationError("CATALOG_PATH is set but empty; name the catalog file, or unset the variable for the default")
        }
        do {
            _ = try CatalogEnvironment.current.storeOptions()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// A catalog the user named (--catalog or $CATALOG_PATH) must be in a folder that exists: a typo
    /// there is refused (74, naming the folder), never created. The default location is created as needed.
    func requireChosenFolder() throws {
        guard CatalogEnvironment.current.chosenCatalog(explicitPath: path) != nil, let location = address.fileURL else { return }
        let folder = location.deletingLastPathComponent().path
        switch FileKind.of(folder) {
        case .folder: return
        case .missing: Diagnostics.report("error: the catalog \(location.path) cannot be opened: no such folder: \(folder)")
        case .inaccessible(let reason): Diagnostics.report("error: the catalog \(location.path) cannot be opened: its folder \(folder): \(reason)")
        case .regular, .special: Diagnostics.report("error: the catalog \(location.path) cannot be opened: \(folder) is not a folder")
        }
        throw ExitCode(.ioError)
    }

    /// Opens the catalog, or prints why not and exits with the matching code. Says so when the open
    /// upgraded the catalog's schema and kept a copy of it.
    func open(_ access: CatalogAccess) async throws -> any CatalogStore {
        try requireChosenFolder()
        do {
            let repository = try await CatalogStores.open(address, access: access, options: storeOptions)
            if let copy = repository.preMigrationCopy {
                Diagnostics.report("upgraded the catalog's schema from \(copy.fromVersion) (applied \(copy.appliedMigrations.joined(separator: ", "))); the catalog as it was is kept at \(copy.url.path)")
            }
            return repository
        } catch {
            throw Diagnostics.exit(for: error)
        }
    }
}

/// The `--json` flag, the same for every command that has one.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of text (the JSON contract: docs/json.md; the command's description says what it prints).")
    var json = false
}

/// `--json` and `--quiet`: the output of the commands that show progress and end with a summary
/// (import, reprocess, work, copy), which ``RunEnding`` writes.
struct RunOutputOptions: ParsableArguments {
    @OptionGroup var format: OutputOptions

    @Flag(name: .shortAndLong, help: "No progress and no summary line; problems are still reported on stderr (--json output is unchanged).")
    var quiet = false

    var json: Bool { format.json }
}
