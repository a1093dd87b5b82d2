import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog stats`: counts, sizes, pipeline versions, failures.
    struct StatsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Show counts, sizes, pipeline versions and failures."
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let repository = try await catalog.open(.readOnly)
            var stats = try await Diagnostics.reporting { try await repository.stats() }
            stats.work = try await Diagnostics.reporting { try await Self.workStatus(of: repository) }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(stats))
                return
            }
            var lines = [
                "Catalog     \(catalog.displayName) (\(Format.bytes(stats.fileSize)))",
                "Entries     \(stats.total): \(stats.ok) ok, \(stats.failed) failed",
            ]
            for (code, count) in stats.failuresByCode.sorted(by: { $0.key < $1.key }) {
                lines.append("  \(code): \(count)")
            }
            let versions = stats.stickersByPipelineVersion.sorted { $0.key < $1.key }.map { "v\($0.key): \($0.value)" }
            lines.append("Stickers    \(stats.ok) (\(Format.bytes(stats.stickerBytes)))" + (versions.isEmpty ? "" : ", pipeline " + versions.joined(separator: ", ")))
            lines.append("Colours     \(stats.paletteColors)")
            lines.append("Packs       \(stats.packs)")
            if let work = stats.work {
                lines += WorkCommand.describe(work, label: "Work        ")
            }
            lines.append("Schema      \(stats.migrations.last ?? "none") (\(Counted(stats.migrations.count, "migration")))")
            Terminal.standardOutput.write(lines.joined(separator: "\n") + "\n")
        }

        /// The work queue; nil on a back end that has none yet (it says so as `.unavailable`).
        private static func workStatus(of repository: any CatalogStore) async throws(CatalogError) -> WorkStatus? {
            do {
                return try await repository.workStatus()
            } catch {
                if case .unavailable = error { return nil }
                throw error
            }
        }
    }
}
