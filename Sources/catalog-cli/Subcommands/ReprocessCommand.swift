import ArgumentParser
import Catalog
import Foundation
import Processing

extension CatalogCommand {
    /// `catalog reprocess`: re-runs the pipeline on stale entries, in parallel, interruptibly.
    struct ReprocessCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reprocess",
            abstract: "Bring stale entries up to date (older pipeline, other settings, changed source, failed).",
            discussion: """
                An entry is stale when its sticker was made by an older pipeline version (pipeline) or with other settings than the catalog's (settings: size, outline, shadow, palette, model or precision, see `catalog config`), when its file's size or modification time changed and its bytes hash differently (source-changed; a merely touched file is not re-run, its new time is recorded), or when its last processing failed for a reason worth retrying (failed; a file that cannot be decoded stays failed until its bytes change). A missing file is reported (source-missing), not an error. `catalog list --stale` shows what would run and why.

                Each finished entry is replaced in one transaction: an entry is the old one or the new one, complete either way. Ctrl-C / SIGTERM stop starting new entries, commit the finished ones and exit 130 / 143; run reprocess again to continue.

                Exit: 0 done, 1 some entries failed, 69 the segmentation model is not installed (`catalog --help` says where it is looked for), 74/75 catalog not writable/busy, 130/143 interrupted. --json prints one JSON object per entry, then a summary object.
                """
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var model: ModelOptions

        @Flag(help: "Re-run every entry, stale or not.")
        var all = false

        @OptionGroup var parallel: JobsOptions

        @Flag(help: "Read the sources and report what would run, process and write nothing.")
        var dryRun = false

        @OptionGroup var output: RunOutputOptions

        func run() async throws {
            // Trapped first: a signal at any moment from here on ends with the summary line and 130/143.
            let trap = SignalTrap()
            // Before touching the catalog: without the model no photo could be re-made (a dry run makes none).
            let cutout = try await catalog.cutout(model)
            let predictor = dryRun ? nil : try cutout.required()
            // A dry run never migrates the catalog, and no run creates one (a missing catalog is an error).
            let exists = catalog.mayExist
            let repository = try await catalog.open(dryRun || !exists ? .readOnly : .readWrite)
            let settings = cutout.applied(to: try await catalog.settings(of: repository))
            let options = ReprocessOptions(jobs: parallel.jobs, all: all, dryRun: dryRun, settings: settings, predictor: predictor)
            let reprocessor = Reprocessor(repository: repository, options: options)
            let json = output.json
            let quiet = output.quiet

            // A signal before or during the scan for candidates lets the scan finish (it only reads the
            // catalog and stats files), then no entry starts and the summary says how many are left.
            let (summary, _) = try await InterruptibleWork.run(progress: nil, trap: trap) { () throws(CatalogError) in
                let candidates = try await reprocessor.candidates()
                let progress = ProgressBar.forStandardError(total: candidates.count, label: "reprocessing", quiet: quiet)
                defer { progress?.finish() }
                return try await reprocessor.run(candidates) { event in
                    Self.report(event, json: json, progress: progress)
                }
            }
            try RunEnding(output: output, trap: trap).finish(
                summary, interrupted: summary.interrupted,
                .init(
                    sentence: Self.sentence(summary, dryRun: dryRun),
                    kept: "\(Counted.entries(summary.done)) done and kept, \(summary.left) left; run catalog reprocess again to continue",
                    interrupted: "\(Counted.entries(summary.done)) done, \(summary.left) left; run catalog reprocess again to continue"),
                failure: summary.failed > 0 ? .someFailed : nil)
        }

        private static func sentence(_ summary: ReprocessSummary, dryRun: Bool) -> String {
            if summary.done == 0 { return "Nothing to reprocess: every entry is up to date.\n" }
            var parts = ["\(dryRun ? "Would reprocess" : "Reprocessed") \(summary.reprocessed)"]
            if summary.refreshed > 0 { parts.append("\(summary.refreshed) touched but unchanged") }
            if summary.failed > 0 { parts.append("\(summary.failed) failed") }
            if summary.missing > 0 { parts.append("\(summary.missing) with a missing source") }
            if summary.duplicates > 0 { parts.append("\(summary.duplicates) now a copy of another entry") }
            return parts.joined(separator: ", ") + ".\n"
        }

        private static func report(_ event: ReprocessEvent, json: Bool, progress: ProgressBar?) {
            if json {
                Terminal.standardOutput.write(JSONOutput.line(event))
            } else if let line = Self.line(event) {
                if let progress { progress.interject(line) } else { Terminal.standardError.write(line) }
            }
            progress?.advance()
        }

        /// The stderr line for an event people should see.
        private static func line(_ event: ReprocessEvent) -> String? {
            switch event {
            case .failed(let id, let path, _, let error):
                "catalog: \(path) (entry \(id)): \(error.message) [\(error.code)]\n"
            case .missing(let id, let path, _):
                "catalog: \(path) (entry \(id)): source missing, entry left as it is [source-missing]\n"
            case .duplicate(let id, let path, _, let copy):
                copy.removed
                    ? "catalog: \(path) (entry \(id)): now readable, and its bytes are entry \(copy.entry)'s; the placeholder entry was removed\n"
                    : "catalog: \(path) (entry \(id)): its bytes changed to those of entry \(copy.entry); entry \(id) was left as it is\n"
            case .reprocessed, .refreshed: nil
            }
        }
    }
}
