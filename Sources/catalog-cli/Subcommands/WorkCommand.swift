import ArgumentParser
import Catalog
import Foundation
import Processing

extension CatalogCommand {
    /// `catalog work`: processes the shared queue that `import --enqueue` fills, with any number of workers.
    struct WorkCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "work",
            abstract: "Process the files enqueued with `catalog import --enqueue` (run as many workers as you like).",
            discussion: """
                Claims pending files under a lease (held as HOST:PID, renewed every third of --lease while the work runs), processes each as `catalog import` does and commits each result in one transaction, only if the claim is still this worker's (a fencing token): a worker whose lease ran out cannot commit over the one that took the file over. A worker that dies loses its files when its lease runs out, and another worker takes them. A file this machine cannot read is recorded as failed, with the host name in the message.

                When nothing is pending, it enqueues the stale entries (those `catalog reprocess` would run, whose source is there) and processes them the same way, claimed and fenced. Stops when nothing is pending or claimed; with --follow it waits for more. On a SQLite catalog (the processes of one machine) a waiting worker looks at the queue again every second; on a PostgreSQL catalog (workers on many machines, reading the photos from a shared mount) it is woken by the server (LISTEN/NOTIFY) when work is added or given back. Ctrl-C / SIGTERM: claims nothing more, commits what finished, gives back what it holds, exits 130 / 143.

                If the catalog's PostgreSQL server goes away (a restart, a fail-over, the network), the worker says so once on stderr, keeps what it holds and retries with growing pauses (up to 5 s apart) on new connections, for up to --reconnect-for (default 5m); it says so again when the server is back, commits the results whose claims are still its own and goes on. Files are never recorded as failed because the server was away. When the server stays away longer, it exits 69; what it held goes back to the queue when the leases run out, as it does when the worker is signalled during the outage (it then stops at once, 130 / 143).

                --status shows pending, claimed (by holder, with the lease), done and failed files, and exits (with --json: the queue as one JSON object).

                Exit: 0 done, 1 some files failed, 69 no segmentation model installed or the catalog's server unreachable (at the start, or for longer than --reconnect-for), 74/75 catalog not writable/busy, 130/143 interrupted. --json prints one JSON object per file, then a summary object.
                """
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var model: ModelOptions

        @OptionGroup var parallel: JobsOptions

        @Flag(help: "Wait for more work when the queue is drained, until interrupted.")
        var follow = false

        @Option(help: ArgumentHelp("How long a claim lasts unless renewed: seconds, or a number with s, m or h (1s to 24h).", valueName: "duration"), transform: WorkCommand.lease)
        var lease: Duration = .seconds(60)

        @Option(help: ArgumentHelp("How long to keep retrying while the catalog's PostgreSQL server cannot be reached, then exit 69: seconds, or a number with s, m or h (1s to 24h).", valueName: "duration"), transform: WorkCommand.reconnectFor)
        var reconnectFor: Duration = .seconds(300)

        @Flag(help: "Show the queue (pending, claimed by whom until when, done, failed) and exit.")
        var status = false

        @OptionGroup var output: RunOutputOptions

        func run() async throws {
            if status { return try await showStatus() }
            let trap = SignalTrap(interruptingLockWaits: false)
            let cutout = try await catalog.cutout(model)
            let predictor = try cutout.required()
            let repository = try await catalog.open(.readWrite)
            let settings = cutout.applied(to: try await catalog.settings(of: repository))
            let host = Self.hostName
            let options = WorkOptions(
                jobs: parallel.jobs, lease: lease, follow: follow, host: host, holder: "\(host):\(getpid())",
                settings: settings, predictor: predictor, reconnectFor: reconnectFor)
            let worker = Worker(repository: repository, options: options)
            let json = output.json
            let quiet = output.quiet
            let (summary, _) = try await InterruptibleWork.run(progress: nil, trap: trap) { () throws(CatalogError) in
                try await worker.run { event in Self.report(event, json: json, quiet: quiet) } onNotice: { notice in Self.report(notice) }
            }
            let sentence = "Imported \(summary.imported), \(summary.duplicates) already catalogued, \(summary.reprocessed) stale entries brought up to date, \(summary.failed) failed"
                + (summary.lost > 0 ? ", \(summary.lost) taken over by other workers" : "") + ".\n"
            let left = summary.leftClaimed > 0
                ? "; \(summary.leftClaimed) left claimed until their leases run out (the catalog's server could not be reached)" : ""
            try RunEnding(output: output, trap: trap).finish(
                summary, interrupted: summary.interrupted,
                .init(
                    sentence: sentence, kept: "finished files are kept; unfinished ones were given back to the queue",
                    interrupted: "\(summary.released) unfinished files given back to the queue\(left)"),
                failure: summary.failed > 0 ? .someFailed : nil)
        }

        private func showStatus() async throws {
            let repository = try await catalog.open(.readOnly)
            let work: WorkStatus = try await Diagnostics.reporting { try await repository.workStatus() }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(work))
            } else {
                Terminal.standardOutput.write(Self.describe(work, label: "Work        ").joined(separator: "\n") + "\n")
            }
        }

        /// The queue as text lines (also a section of `catalog stats`).
        static func describe(_ work: WorkStatus, label: String) -> [String] {
            var lines = ["\(label)\(work.pending) pending, \(work.claimed) claimed, \(work.done) done, \(work.failed) failed"]
            for holder in work.holders {
                lines.append("  \(holder.holder): \(holder.claimed) claimed, lease until \(holder.leaseUntil)\(holder.expired ? " (expired)" : "")")
            }
            for failure in work.failures.prefix(10) {
                lines.append("  failed: \(failure.path): \(failure.message)")
            }
            return lines
        }

        private static func report(_ event: WorkEvent, json: Bool, quiet: Bool) {
            if json {
                Terminal.standardOutput.write(JSONOutput.line(event))
                return
            }
            switch event {
            case .file(.failed(_, let path, let code, let message)):
                Terminal.standardError.write("catalog: \(path): \(message) [\(code)]\n")
            case .reprocess(.failed(let id, let path, _, let error)):
                Terminal.standardError.write("catalog: \(path) (entry \(id)): \(error.message) [\(error.code)]\n")
            case .lost(let path):
                Terminal.standardError.write("catalog: \(path): the claim was taken over by another worker (lease expired); result discarded\n")
            case .file(let event) where !quiet:
                if case .imported(let id?, let path) = event { Terminal.standardError.write("catalog: imported \(path) as entry \(id)\n") }
            default:
                break
            }
        }

        /// An outage of the catalog's server: one line when it begins, one when it ends (never one per retry).
        private static func report(_ notice: WorkNotice) {
            switch notice {
            case .serverLost(let error, let patience):
                let what = if case .serverUnreachable(_, let server, let reason) = error { "\(server) (\(reason))" } else { error.localizedDescription }
                Terminal.standardError.write(
                    "catalog: lost the catalog's server \(what); keeping what this worker holds and reconnecting, for up to \(describe(patience))\n")
            case .serverBack(let after):
                Terminal.standardError.write("catalog: reconnected to the catalog's server after \(describe(after)); going on\n")
            }
        }

        /// A duration as people write it: 800 ms, 4.2 s, 5 min.
        static func describe(_ duration: Duration) -> String {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            if seconds < 1 { return "\(Int(seconds * 1000)) ms" }
            if seconds < 60 { return String(format: "%.1f s", seconds) }
            let minutes = seconds / 60
            return minutes == minutes.rounded() ? "\(Int(minutes)) min" : String(format: "%.1f min", minutes)
        }

        /// This machine's name (gethostname(2)), as claims and failure messages name it.
        static var hostName: String {
            var buffer = [CChar](repeating: 0, count: 256)
            guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown-host" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// `--lease`: `90`, `90s`, `500ms`, `5m`, `1h`; from 1 s to 24 h (tests use a few seconds).
        static func lease(_ text: String) throws -> Duration {
            try duration(text, option: "--lease")
        }

        /// `--reconnect-for`: as `--lease`.
        static func reconnectFor(_ text: String) throws -> Duration {
            try duration(text, option: "--reconnect-for")
        }

        private static func duration(_ text: String, option: String) throws -> Duration {
            let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
            let unit = units.first { text.hasSuffix($0.0) && Double(text.dropLast($0.0.count)) != nil }
            let number = Double(unit.map { String(text.dropLast($0.0.count)) } ?? text)
            guard let number, number.isFinite else { throw ValidationError("\(option) must be a duration such as 60s or 5m, not '\(text)'") }
            let seconds = number * (unit?.1 ?? 1)
            guard (1...86_400).contains(seconds) else { throw ValidationError("\(option) must be from 1s to 24h, not '\(text)'") }
            return .milliseconds(Int(seconds * 1000))
        }
    }
}
