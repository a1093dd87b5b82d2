import ArgumentParser
import Catalog

extension CatalogCommand {
    /// `catalog verify`: checks the catalog, reading only.
    struct VerifyCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check the catalog's integrity and that every entry is complete (reads only).",
            discussion: """
                Runs SQLite's integrity and foreign-key checks, checks that every ok entry has its sticker and PNG with consistent sizes, that palettes are well formed (and match the palette index when the catalog has one), and lists entries whose source file is missing (reported, not a fault).

                Exit: 0 the catalog is sound, 65 problems were found (each is listed) or the file is not a catalog this version reads, 74 it cannot be read, 75 busy.
                """
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let report: VerifyReport
            do {
                // Opened here rather than by `catalog.open`, so a file damaged so badly that it does not
                // even open is an answer (65), not an I/O failure.
                let repository = try await CatalogStores.open(catalog.address, access: .readOnly, options: catalog.storeOptions)
                report = try await repository.verify()
            } catch {
                // A damaged file makes SQLite fail while reading (SQLITE_CORRUPT): that is the answer.
                if case .database = error {
                    _ = Diagnostics.exit(for: error)
                    throw ExitStatus.dataError
                }
                throw Diagnostics.exit(for: error)
            }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(report))
            } else {
                Terminal.standardOutput.write(Self.describe(report, path: catalog.displayName))
            }
            if !report.sound { throw ExitStatus.dataError }
        }

        static func describe(_ report: VerifyReport, path: String) -> String {
            var lines = [
                "Catalog     \(path)",
                "Checked     \(report.entries) entries, \(report.paletteColors) palette colours"
                    + (report.paletteIndexChecked ? " (and the palette index)" : ""),
                report.sound ? "Result      sound" : "Result      \(report.problems.count) problem(s)",
            ]
            for problem in report.problems {
                lines.append("  [\(problem.check)] \(problem.message)")
            }
            if !report.missingSources.isEmpty {
                lines.append("Missing     \(report.missingSources.count) source file(s) (the entries are kept):")
                for source in report.missingSources {
                    lines.append("  \(source.id)  \(source.path)")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
