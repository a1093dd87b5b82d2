import ArgumentParser
import Catalog
import Foundation

extension CatalogCommand {
    /// `catalog copy --to ADDRESS`: copies the whole catalog into a new one, resumably.
    struct CopyCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy the whole catalog into a new catalog (a file or a PostgreSQL database).",
            discussion: """
                Copies every entry (with its id, source, EXIF, sticker and palette, failed ones too), every pack with its items in order, and the settings, from the catalog (--catalog) to --to, a new catalog: a SQLite file or an empty PostgreSQL database (postgres://...), in either direction.

                The target must be new: a file that does not exist yet, or a PostgreSQL database with no catalog content. Entries go in batches in id order, each batch one transaction; the target remembers which catalog it is a copy of and how far it got, and stays marked incomplete until packs and settings are copied last. Ctrl-C / SIGTERM stop after the batch under way (exit 130 / 143); run the same command again to continue. Any other non-empty target is refused (74) and its content left as it was.

                Then `catalog verify` on both catalogs reports the same counts and checksums. Progress goes to stderr; --json prints one JSON object per step (started, batch, finished) on stdout, then a summary object.

                Exit: 0 copied, 74 the target is not empty (or cannot be written), 65 the source is not a catalog this version reads, 69 a server cannot be reached, 75 busy, 130/143 interrupted.
                """
        )

        @OptionGroup var catalog: CatalogOptions

        @Option(name: .customLong("to"), help: ArgumentHelp("The new catalog: a file path that does not exist yet, or postgres://USER@HOST:PORT/DB of an empty database.", valueName: "address"))
        var target: String

        @Option(help: "Entries per transaction on the target, 1 to 10000.", transform: OptionValue.whole("--batch-size", 1...10_000))
        var batchSize: Int = 200

        @OptionGroup var output: RunOutputOptions

        func validate() throws {
            if target.isEmpty { throw ValidationError("--to '' names no catalog (an unset variable?)") }
        }

        func run() async throws {
            let trap = SignalTrap()
            let source = try await catalog.open(.readOnly)
            let targetOptions = CatalogOptions.parseOrExit(["--catalog", target])
            let destination = try await targetOptions.open(.readWrite)
            let copier = CatalogCopier(source: source, target: destination, batchSize: batchSize)
            let json = output.json
            let quiet = output.quiet
            let delay = Self.testBatchDelay
            let (summary, _) = try await InterruptibleWork.run(progress: nil, trap: trap) { () throws(CatalogError) in
                try await copier.run { event in
                    Self.report(event, json: json, quiet: quiet)
                    if let delay { Thread.sleep(forTimeInterval: delay) }
                }
            }
            let resume = "run `catalog copy --to \(targetOptions.displayName)` again to continue"
            try RunEnding(output: output, trap: trap).finish(
                summary, interrupted: summary.interrupted,
                .init(
                    sentence: summary.interrupted
                        ? nil : "Copied \(Counted.entries(summary.copied)) to \(targetOptions.displayName); `catalog verify` on both reports the same checksums.\n",
                    kept: "\(Counted.entries(summary.copied)) copied; \(resume)",
                    interrupted: "\(Counted.entries(summary.copied)) copied, the copy is incomplete; \(resume)"))
        }

        private static var testBatchDelay: Double? { TestHooks.copyBatchDelay }

        private static func report(_ event: CopyEvent, json: Bool, quiet: Bool) {
            if json { Terminal.standardOutput.write(JSONOutput.line(event)) }
            guard !quiet else { return }
            switch event {
            case .started(let source, let target, let entries, let resumedAfter):
                let resumed = resumedAfter.map { ", continuing after entry \($0)" } ?? ""
                Terminal.standardError.write("catalog: copying \(Counted.entries(entries)) from \(source) to \(target)\(resumed)\n")
            case .batch(let copied, let lastID):
                Terminal.standardError.write("catalog: \(Counted.entries(copied)) copied (up to entry \(lastID))\n")
            case .finished(_, let packs, let settings):
                Terminal.standardError.write("catalog: copied \(Counted(packs, "pack")) and \(Counted(settings, "setting")); the copy is complete\n")
            }
        }
    }
}
