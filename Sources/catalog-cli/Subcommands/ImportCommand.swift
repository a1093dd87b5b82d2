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
                The format is recognised from the bytes (JPEG, PNG, WebP, HEIF/HEIC and AVIF photos; MP4, MOV, WebM and Matroska clips, animated GIF, APNG and animated WebP, whose first 3 seconds, or the part --clip START,DURATION names, at most --max-frames frames, become an animated sticker; the part is kept with the entry for every later re-make, and stills ignore both options). Identity is the SHA-256 of a file's bytes: importing the same bytes again is a no-op ("duplicate"), and a moved file is recognised (its path is updated). Each photo's subject is cut out (the segmentation model must be installed: `catalog --help` says where it is looked for; PNGs with transparency keep their own) and becomes an outlined sticker. A file edited in place (same path, new bytes) updates its entry ("updated": same id, same packs, new sticker). A file that cannot be imported is recorded as a failed entry with a reason (unsupported-format, corrupt-image, truncated, too-large, no-subject, no-video, no-frames, empty, not-a-file, unreadable) and the rest goes on; one that failed before fails again. Every file met is reported; skipped ones carry a reason (hidden, not-a-file for FIFOs, sockets and devices, catalog-file for the catalog's own files and backups, link-to-folder, dangling-link). Names that are not UTF-8 are shown with \\xNN escapes.

                Exit: 0 all imported (or already there), 1 some failed, 65 nothing usable, 69 no segmentation model installed (or a damaged one; nothing is written), 74/75 catalog not writable/busy, 130/143 interrupted (run the same import again to continue). --json prints one JSON object a line, then a summary object.
                """
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var model: ModelOptions

        @Argument(help: ArgumentHelp("Photos and folders to import.", valueName: "path"))
        var paths: [String]

        @OptionGroup var parallel: JobsOptions

        @Option(
            name: .customLong("max-pixels"), parsing: .unconditional, help: "Refuse images with more pixels than this (decompression bombs).",
            transform: OptionValue.whole("--max-pixels", 1...Int.max)
        )
        var maxPixels: Int = DecodeOptions.defaultMaxPixels

        @OptionGroup var clip: ClipOptions

        @Option(
            parsing: .unconditional, help: "How many palette colours to keep per sticker (1-16); default: the catalog's palette.colors (5 unless set with `catalog config`).",
            transform: OptionValue.whole("--colors", 1...PaletteExtractor.colorLimit)
        )
        var colors: Int?

        @Flag(help: "Examine and process every file, report what would happen, write nothing.")
        var dryRun = false

        @Option(help: "Also add the imported stickers (and ones already catalogued) to this pack, created if needed.")
        var pack: String?

        @Flag(help: "Record every file as pending work for `catalog work` (path, size, time), without reading it.")
        var enqueue = false

        @OptionGroup var output: RunOutputOptions

        func validate() throws {
            if paths.isEmpty { throw ValidationError("name at least one file or folder to import") }
            if paths.contains("") { throw ValidationError("an empty path names no file (an unset variable?); name a file or folder, or . for the current folder") }
            if let colors, !(1...PaletteExtractor.colorLimit).contains(colors) {
                throw ValidationError("--colors must be between 1 and \(PaletteExtractor.colorLimit), not \(colors)")
            }
            if maxPixels < 1 { throw ValidationError("--max-pixels must be a positive number of pixels") }
            if let pack { try validatePackName(pack) }
            if enqueue && (dryRun || pack != nil || colors != nil || model.name != nil || model.precisionName != nil || clip.clip != nil || clip.maxFrames != nil) {
                throw ValidationError("--enqueue only records files for `catalog work`: it takes no --dry-run, --pack, --colors, --model, --precision, --clip or --max-frames")
            }
        }

        func run() async throws {
            if enqueue { return try await runEnqueue() }
            // Trapped first: a signal while the catalog's lock is awaited ends that wait too (130/143).
            let trap = SignalTrap()
            // Before touching the catalog: without the model nothing could be imported.
            let cutout = try await catalog.cutout(model)
            let predictor = try cutout.required()
            let repository: (any CatalogStore)?
            if dryRun {
                // A dry run never creates or migrates a catalog; it reads one if there is one.
                repository = catalog.mayExist ? try await catalog.open(.readOnly) : nil
            } else {
                repository = try await catalog.open(.readWrite)
            }
            var settings = cutout.applied(to: try await catalog.settings(of: repository))
            if let colors { settings.paletteColors = colors }
            let importer = Importer(
                repository: repository,
                options: ImportOptions(jobs: parallel.jobs, maxPixels: maxPixels, settings: settings, dryRun: dryRun, predictor: predictor,
                    clip: clip.window)
            )
            let progress = ProgressBar.forStandardError(
                total: ProgressBar.wanted(quiet: output.quiet) ? Importer.countFiles(paths) : 0, label: "importing", quiet: output.quiet
            )
            let json = output.json
            let paths = self.paths
            let packIds = Mutex<[(path: String, id: Int64)]>([])

            let (summary, _) = try await InterruptibleWork.run(progress: progress, trap: trap) { () throws(CatalogError) in
                try await importer.run(paths) { event in
                    switch event {
                    case .imported(let id?, let path), .duplicate(let id, let path, _), .updated(let id?, let path): packIds.withLock { $0.append((path, id)) }
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
                    if !json && !output.quiet { Terminal.standardOutput.write("Added \(added.added.count) to pack \(pack).\n") }
                } catch {
                    throw Diagnostics.exit(for: error)
                }
            }
            try RunEnding(output: output, trap: trap).finish(
                summary, interrupted: summary.interrupted,
                .init(
                    sentence: Self.sentence(summary, dryRun: dryRun), kept: "\(Counted(summary.total, "file")) done and kept; run the same import again to continue",
                    interrupted: "\(Counted(summary.total, "file")) done; run the same import again to continue"),
                failure: summary.failed == 0 ? nil : summary.imported + summary.duplicates + summary.updated > 0 ? .someFailed : .dataError)
            // Nothing failed, so nothing was met at all.
            if summary.total == 0 {
                Diagnostics.report("no files found in \(paths.joined(separator: ", "))")
            }
        }

        /// `--enqueue`: walks the paths and records the files as pending work; no model, no decoding.
        private func runEnqueue() async throws {
            let trap = SignalTrap()
            let repository = try await catalog.open(.readWrite)
            let enqueuer = Enqueuer(repository: repository)
            let json = output.json
            let paths = self.paths
            let (summary, _) = try await InterruptibleWork.run(progress: nil, trap: trap) { () throws(CatalogError) in
                try await enqueuer.run(paths) { event in Self.report(event, json: json, progress: nil) }
            }
            var sentence = "Enqueued \(summary.enqueued), \(summary.unchanged) already pending or imported, \(summary.failed) failed"
            if summary.skipped > 0 { sentence += ", \(summary.skipped) skipped" }
            let resume = "\(Counted(summary.enqueued, "file")) enqueued; run the same command again to continue"
            try RunEnding(output: output, trap: trap).finish(
                summary, interrupted: summary.interrupted,
                .init(sentence: sentence + "; run `catalog work` to process them.\n", kept: resume, interrupted: resume),
                failure: summary.failed == 0 ? nil : summary.enqueued + summary.unchanged > 0 ? .someFailed : .dataError)
        }

        /// The summary line: every file met is in one of its numbers.
        static func sentence(_ summary: ImportSummary, dryRun: Bool) -> String {
            var text = "\(dryRun ? "Would import" : "Imported") \(summary.imported), \(summary.duplicates) already catalogued"
            if summary.updated > 0 { text += ", \(summary.updated) \(dryRun ? "would be " : "")updated (edited in place)" }
            text += ", \(summary.failed) failed"
            if summary.skipped > 0 { text += ", \(summary.skipped) skipped (--json lists each with its reason)" }
            if summary.nearDuplicates > 0 {
                text += "; \(summary.nearDuplicates) of the new entries look like ones already catalogued (`catalog duplicates` lists them)"
            }
            return text + ".\n"
        }

        private static func report(_ event: ImportEvent, json: Bool, progress: ProgressBar?) {
            if json {
                Terminal.standardOutput.write(JSONOutput.line(event))
            } else if case .failed(_, let path, let code, let message) = event {
                let line = "catalog: \(path): \(message) [\(code)]\n"
                if let progress { progress.interject(line) } else { Terminal.standardError.write(line) }
            } else if case .skipped(let path, let code, let message) = event, code != "hidden" {
                // Hidden names are skipped by design; the others (special files, the catalog's own files,
                // undecodable names) are worth a line.
                let line = "catalog: \(path): skipped: \(message) [\(code)]\n"
                if let progress { progress.interject(line) } else { Terminal.standardError.write(line) }
            } else if case .warning(let path, let message) = event {
                let line = "catalog: warning: \(path): \(message)\n"
                if let progress { progress.interject(line) } else { Terminal.standardError.write(line) }
            } else if case .nearDuplicate(let id, let path, let of, let distance) = event {
                let line = "catalog: \(path): entry \(id) is a near-duplicate of #\(of) (distance \(distance)); kept\n"
                if let progress { progress.interject(line) } else { Terminal.standardError.write(line) }
            }
            // A warning comes before the file's own event, which advances the bar; a near-duplicate after it.
            if case .warning = event { return }
            if case .nearDuplicate = event { return }
            progress?.advance()
        }
    }
}
