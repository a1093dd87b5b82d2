import ArgumentParser
import Catalog
import Foundation
import Processing
import Synchronization

extension CatalogCommand {
    /// `catalog import PATH...`: catalogue photos from files and folders, in parallel.
    struct ImportCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import photos from files and folders (recursively) into the catalog.",
            discussion: """
                The format is recognised from the bytes (JPEG and PNG). Identity is the SHA-256 of a file's bytes: importing the same bytes again is a no-op ("duplicate"), and a moved file is recognised (its path is updated). Each photo's subject is cut out (the segmentation model must be installed: `make model`, or $STICKER_MODEL_DIR; PNGs with transparency keep their own) and becomes an outlined sticker. A file that cannot be imported is recorded as a failed entry with a reason (unsupported-format, corrupt-image, truncated, too-large, no-subject, unreadable) and the rest goes on. Hidden files inside folders are skipped.

                Exit: 0 all imported (or already there), 1 some failed, 65 nothing usable, 69 no segmentation model installed (or a damaged one; nothing is written), 74/75 catalog not writable/busy, 130/143 interrupted (run the same import again to continue). --json prints one JSON object a line, then a summary object.
                """
        )

        @OptionGroup var catalog: CatalogOptions

        @Argument(help: ArgumentHelp("Photos and folders to import.", valueName: "path"))
        var paths: [String]

        @Option(help: "How many photos to process at once (the default is the number of cores).")
        var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

        @Option(name: .customLong("max-pixels"), help: "Refuse images with more pixels than this (decompression bombs).")
        var maxPixels: Int = DecodeOptions.defaultMaxPixels

        @Option(help: "How many palette colours to keep per sticker (1-16); default: the catalog's palette.colors (5 unless set with `catalog config`).")
        var colors: Int?

        @Flag(help: "Examine and process every file, report what would happen, write nothing.")
        var dryRun = false

        @Option(help: "Also add the imported stickers (and ones already catalogued) to this pack, created if needed.")
        var pack: String?

        @Flag(help: "Print one JSON object per file, then a summary object.")
        var json = false

        func validate() throws {
            if paths.isEmpty { throw ValidationError("name at least one file or folder to import") }
            if !(1...256).contains(jobs) { throw ValidationError("--jobs must be between 1 and 256, not \(jobs)") }
            if let colors, !(1...PaletteExtractor.colorLimit).contains(colors) {
                throw ValidationError("--colors must be between 1 and \(PaletteExtractor.colorLimit), not \(colors)")
            }
            if maxPixels < 1 { throw ValidationError("--max-pixels must be a positive number of pixels") }
            if let pack { try validatePackName(pack) }
        }

        func run() async throws {
            // Before touching the catalog: without the model nothing could be imported.
            let predictor = try SegmentationModel.required()
            let repository: CatalogRepository?
            if dryRun {
                // A dry run never creates or migrates a catalog; it reads one if there is one.
                repository = FileManager.default.fileExists(atPath: catalog.location.path) ? try catalog.open(.readOnly) : nil
            } else {
                repository = try catalog.open(.readWrite)
            }
            var settings = try catalog.settings(of: repository)
            if let colors { settings.paletteColors = colors }
            let importer = Importer(
                repository: repository,
                options: ImportOptions(jobs: jobs, maxPixels: maxPixels, settings: settings, dryRun: dryRun, predictor: predictor)
            )
            let progress = ProgressBar.forStandardError(total: Terminal.standardError.isInteractive ? Importer.countFiles(paths) : 0, label: "importing")
            let json = self.json
            let paths = self.paths
            let packIds = Mutex<[(path: String, id: Int64)]>([])

            let (summary, trap) = try await InterruptibleWork.run(progress: progress) { () throws(CatalogError) in
                try await importer.run(paths) { event in
                    switch event {
                    case .imported(let id?, let path), .duplicate(let id, let path, _): packIds.withLock { $0.append((path, id)) }
                    default: break
                    }
                    Self.report(event, json: json, progress: progress)
                }
            }
            if let pack, let repository, !dryRun {
                do {
                    // Files finish in any order with --jobs > 1; the pack takes them in path order, so
                    // the same import always makes the same pack.
                    let ids = packIds.withLock { $0 }.sorted { $0.path < $1.path }.map(\.id)
                    let added = try await repository.addToPack(pack, ids: ids, createIfMissing: true, skipNonStickers: true)
                    if !json { Terminal.standardOutput.write("Added \(added.added.count) to pack \(pack).\n") }
                } catch {
                    throw Diagnostics.exit(for: error)
                }
            }
            if json {
                Terminal.standardOutput.write(JSONOutput.line(summary))
            } else {
                let verb = dryRun ? "Would import" : "Imported"
                Terminal.standardOutput.write("\(verb) \(summary.imported), \(summary.duplicates) already catalogued, \(summary.failed) failed.\n")
            }
            if summary.interrupted {
                Diagnostics.report("interrupted by \(trap.signalName): \(summary.total) files done; run the same import again to continue")
                throw ExitCode(trap.exitCode)
            }
            if summary.total == 0 {
                Diagnostics.report("no files found in \(paths.joined(separator: ", "))")
            }
            if summary.failed > 0 {
                throw summary.imported + summary.duplicates > 0 ? ExitStatus.someFailed : ExitStatus.dataError
            }
        }

        private static func report(_ event: ImportEvent, json: Bool, progress: ProgressBar?) {
            if json {
                Terminal.standardOutput.write(JSONOutput.line(event))
            } else if case .failed(_, let path, let code, let message) = event {
                let line = "catalog: \(path): \(message) [\(code)]\n"
                if let progress { progress.interject(line) } else { Terminal.standardError.write(line) }
            } else if case .warning(let path, let message) = event {
                let line = "catalog: warning: \(path): \(message)\n"
                if let progress { progress.interject(line) } else { Terminal.standardError.write(line) }
            }
            // A warning comes before the file's own event, which advances the bar.
            if case .warning = event { return }
            progress?.advance()
        }
    }
}
