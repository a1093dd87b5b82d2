import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog list`: the entries, as a table or JSON.
    struct ListCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the catalog's entries.",
            discussion: "--json prints an array of {\"id\",\"path\",\"sha256\",\"status\"}; with --stale, of {\"id\",\"path\",\"reasons\"}."
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var output: OutputOptions

        @Flag(help: "Only entries whose processing failed, with the reason.")
        var failed = false

        @Option(help: "Only the entries of this pack, in pack order.")
        var pack: String?

        @Flag(help: "Only entries `catalog reprocess` would run, with the reasons (pipeline, settings, source-changed, failed, source-missing).")
        var stale = false

        @Flag(help: "One entry per group of near-duplicates: the group's best (see `catalog duplicates`).")
        var distinct = false

        func validate() throws {
            if failed && stale { throw ValidationError("choose one of --failed and --stale") }
            if stale && pack != nil { throw ValidationError("choose one of --pack and --stale") }
            if stale && distinct { throw ValidationError("choose one of --distinct and --stale") }
            if let pack { try validatePackName(pack) }
        }

        func run() async throws {
            let repository = try await catalog.open(.readOnly)
            if stale {
                // Opened read-only first, so an older schema is refused, never upgraded, by a listing. A
                // writable catalog then takes the new times of touched-but-unchanged files (see staleEntries),
                // without waiting for a lock: a busy catalog only means those files are hashed again next time.
                var immediate = catalog.storeOptions
                immediate.lockWait = .zero
                let writable = try? await CatalogStores.open(catalog.address, access: .readWrite, options: immediate)
                return try await listStale(writable ?? repository)
            }
            var entries: [EntrySummary] = try await Diagnostics.reporting {
                if let pack {
                    try await repository.entries(inPack: pack).filter { !failed || $0.status == .failed }
                } else {
                    try await repository.entries(failed ? .failed : .all)
                }
            }
            if distinct {
                let groups = try await Diagnostics.reporting { try await DistinctEntries.load(repository) }
                entries = entries.filter { groups.isShown($0.id) }
            }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(entries))
                return
            }
            var table = failed ? Table("ID", "REASON", "PATH") : Table("ID", "STATUS", "PATH")
            for entry in entries {
                if failed {
                    table.append("\(entry.id)", entry.failureCode ?? "-", entry.path)
                } else {
                    table.append("\(entry.id)", entry.status == .ok ? "ok" : "failed: \(entry.failureCode ?? "?")", entry.path)
                }
            }
            Terminal.standardOutput.write(entries.isEmpty ? (failed ? "No failed entries.\n" : "The catalog is empty.\n") : table.rendered())
        }

        private func listStale(_ repository: any CatalogStore) async throws {
            let settings = try await catalog.settings(of: repository)
            let entries: [StaleEntry] = try await Diagnostics.reporting { try await Self.staleEntries(in: repository, settings: settings) }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(entries))
                return
            }
            var table = Table("ID", "REASONS", "PATH")
            for entry in entries {
                table.append("\(entry.id)", entry.reasons.map(\.rawValue).joined(separator: ","), entry.path)
            }
            Terminal.standardOutput.write(entries.isEmpty ? "Every entry is up to date.\n" : table.rendered())
        }
    }
}
