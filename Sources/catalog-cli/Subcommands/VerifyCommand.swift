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

                Also prints counts and SHA-256 checksums of the content (entries with their stickers and palettes; packs and settings), computed the same way on every back end: a catalog and its `catalog copy` report the same ones.

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
                var checked = try await repository.verify()
                checked.checksums = try await Self.checksums(of: repository)
                report = checked
            } catch {
                // A damaged file makes SQLite fail while reading (SQLITE_CORRUPT): that is the answer.
                if case .database = error {
                    _ = Diagnostics.exit(for: error)
                    throw ExitCode(.dataError)
                }
                throw Diagnostics.exit(for: error)
            }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(report))
            } else {
                Terminal.standardOutput.write(Self.describe(report, path: catalog.displayName))
            }
            if !report.sound { throw ExitCode(.dataError) }
        }

        /// The content's checksums; nil on a back end that cannot list its records yet (it says so as `.unavailable`).
        private static func checksums(of repository: any CatalogStore) async throws(CatalogError) -> CatalogChecksums? {
            do {
                return try await CatalogChecksums.compute(of: repository)
            } catch {
                if case .unavailable = error { return nil }
                throw error
            }
        }

        static func describe(_ report: VerifyReport, path: String) -> String {
            var lines = [
                "Catalog     \(path)",
                "Checked     \(Counted.entries(report.entries)), \(Counted(report.paletteColors, "palette colour"))"
                    + (report.paletteIndexChecked ? " (and the palette index)" : ""),
            ]
            if let sums = report.checksums {
                lines += [
                    "Content     \(Counted.entries(sums.entries)), \(Counted(sums.stickers, "sticker")), \(Counted(sums.paletteColors, "palette colour")), "
                        + "\(Counted(sums.packs, "pack")) (\(Counted(sums.packItems, "item"))), \(Counted(sums.settings, "setting"))",
                    "Entries     sha256 \(sums.entriesSHA256)",
                    "Packs       sha256 \(sums.packsSHA256)",
                ]
            }
            lines += [
                report.sound ? "Result      sound" : "Result      \(Counted(report.problems.count, "problem"))",
            ]
            for problem in report.problems {
                lines.append("  [\(problem.check)] \(problem.message)")
            }
            if !report.missingSources.isEmpty {
                lines.append("Missing     \(Counted(report.missingSources.count, "source file")) (the entries are kept):")
                for source in report.missingSources {
                    lines.append("  \(source.id)  \(source.path)")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
