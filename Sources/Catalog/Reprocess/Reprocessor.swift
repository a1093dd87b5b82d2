import Foundation
import Processing

/// How a reprocess runs.
public struct ReprocessOptions: Sendable {
    /// Entries in flight at once (read, hash, decode, process).
    public var jobs: Int
    /// Re-run every entry, stale or not.
    public var all: Bool
    /// Read and hash the sources, report what would run, process and write nothing.
    public var dryRun: Bool
    /// In a dry run, still record the new size and modification time of sources found touched but
    /// unchanged (`list --stale` on a writable catalog), so the next look does not hash them again.
    /// Only that is written, and only when the catalog takes it at once: it is a cache, not a change.
    public var recordsTouched: Bool
    /// The catalog's current settings: what stale entries are compared with and re-made with.
    public var settings: StickerSettings
    public var maxPixels: Int
    /// Finds the subject in photos, shared by every entry (see ``ImportOptions/predictor``); nil: only
    /// photos with their own transparency can be re-made (enough for a dry run, which processes nothing).
    public var predictor: (any MaskPredictor)?

    public init(
        jobs: Int, all: Bool = false, dryRun: Bool = false, recordsTouched: Bool = false, settings: StickerSettings,
        maxPixels: Int = DecodeOptions.defaultMaxPixels, predictor: (any MaskPredictor)?
    ) {
        self.jobs = max(1, jobs)
        self.all = all
        self.dryRun = dryRun
        self.recordsTouched = recordsTouched
        self.settings = settings
        self.maxPixels = maxPixels
        self.predictor = predictor
    }
}

/// Brings entries up to date: like the ``Importer``, a bounded task group reads, hashes and processes
/// entries in parallel, and the repository commits each finished entry in its own transaction, replacing
/// the old one whole. Finished entries are no longer stale, so an interrupted run is continued by running again.
public struct Reprocessor: Sendable {
    let repository: any EntryStore & ReprocessStore
    let options: ReprocessOptions

    public init(repository: any EntryStore & ReprocessStore, options: ReprocessOptions) {
        self.repository = repository
        self.options = options
    }

    /// The entries this run looks at (stale ones, or all), by id: for progress bars and `list --stale`.
    public func candidates() async throws(CatalogError) -> [ReprocessCandidate] {
        try await repository.reprocessCandidates(settings: options.settings, all: options.all)
    }

    /// Runs `candidates`, calling `onEvent` once per entry as results commit. Stops starting new entries
    /// when the task is cancelled; what finished is committed. Throws only for catalog failures.
    public func run(_ candidates: [ReprocessCandidate], onEvent: @Sendable (ReprocessEvent) -> Void) async throws(CatalogError) -> ReprocessSummary {
        let processor = PhotoProcessor(settings: options.settings, maxPixels: options.maxPixels, predictor: options.predictor)
        let repository = self.repository
        let options = self.options
        var summary = ReprocessSummary()
        var pending = candidates.makeIterator()

        func report(_ event: ReprocessEvent) {
            summary.count(event)
            onEvent(event)
        }
        /// The next entry to start; a missing source is reported at once, without a task.
        func nextCandidate() -> ReprocessCandidate? {
            while let candidate = pending.next() {
                guard candidate.source == .missing else { return candidate }
                report(.missing(id: candidate.id, path: candidate.path, reasons: candidate.reasons + [.sourceMissing]))
            }
            return nil
        }
        try await BoundedWork.run(jobs: options.jobs, next: nextCandidate) { candidate in
            await Self.examine(candidate, repository: repository, processor: processor, options: options)
        } finished: { examined throws(CatalogError) in
            if let event = try await commit(examined) { report(event) }
        }
        summary.left = candidates.count - summary.done
        summary.interrupted = Task.isCancelled && summary.left > 0
        return summary
    }

    /// The outcome of examining one entry, before anything is written.
    enum Examined: Sendable {
        case processed(ReadEntry, ProcessedPhoto)
        /// `facts`: what the bytes told before the failure (nil when they did not decode).
        case processingFailed(ReadEntry, format: ImageFormat?, facts: PhotoFacts?, error: ProcessingError)
        case readFailed(ReprocessCandidate, code: String, message: String)
        case missing(ReprocessCandidate)
        /// The same bytes as recorded and nothing else to do: only the size and mtime are new.
        case touched(ReprocessCandidate, source: SourceFile)
        case duplicate(ReprocessCandidate, sha256: String, of: Int64, reasons: [StaleReason])
        /// Dry run: would be processed for `reasons`.
        case wouldProcess(ReprocessCandidate, reasons: [StaleReason])
        case skipped
    }

    /// Reads and hashes one entry's source and, when it is still stale, processes it. Runs in a child task.
    static func examine(
        _ candidate: ReprocessCandidate, repository: any EntryStore & ReprocessStore, processor: PhotoProcessor, options: ReprocessOptions
    ) async -> Examined {
        if Task.isCancelled { return .skipped }
        let read: SourceBytes
        switch SourceReader.read(path: candidate.path) {
        case .success(let bytes): read = bytes
        case .failure(let problem):
            if !EscapedPath.exists(candidate.path) { return .missing(candidate) }
            return .readFailed(candidate, code: problem.code, message: problem.message)
        }
        let sha256 = Importer.hexDigest(read.bytes)
        var reasons = candidate.reasons
        if sha256 != candidate.sha256 {
            // An unreadable entry had no hash to compare: it is re-run for its `failed` reason.
            if candidate.sha256 != nil { reasons.append(.sourceChanged) }
            if let existing = try? await repository.existingEntry(sha256: sha256), existing.id != candidate.id {
                return .duplicate(candidate, sha256: sha256, of: existing.id, reasons: reasons.sorted())
            }
        }
        reasons.sort()
        if reasons.isEmpty && !options.all { return .touched(candidate, source: read.source) }
        if options.dryRun { return .wouldProcess(candidate, reasons: reasons) }
        if Task.isCancelled { return .skipped }
        let attempt = await GuidedAttempt.attempt(processor, bytes: read.bytes, guidance: candidate.guidance, clip: candidate.clip, id: candidate.id)
        let entry = ReadEntry(candidate: candidate, sha256: sha256, source: read.source, reasons: reasons)
        switch attempt.result {
        case .success(let processed):
            return .processed(entry, processed)
        case .failure(let error):
            return .processingFailed(entry, format: ImageFormat.detect(Array(read.bytes.prefix(64))), facts: attempt.facts, error: error)
        }
    }

    /// Commits one examined entry (one transaction) and says what happened; nil when nothing did.
    private func commit(_ examined: Examined) async throws(CatalogError) -> ReprocessEvent? {
        let dryRun = options.dryRun
        switch examined {
        case .skipped:
            return nil
        case .missing(let candidate):
            return .missing(id: candidate.id, path: candidate.path, reasons: candidate.reasons + [.sourceMissing])
        case .readFailed(let candidate, let code, let message):
            return .failed(id: candidate.id, path: candidate.path, reasons: candidate.reasons, error: EventProblem(code: code, message: message))
        case .wouldProcess(let candidate, let reasons):
            return .reprocessed(id: candidate.id, path: candidate.path, reasons: reasons)
        case .touched(let candidate, let source):
            if dryRun {
                if options.recordsTouched, repository.access == .readWrite {
                    // Best effort: a busy or read-only catalog only means the file is hashed again next time.
                    _ = try? await repository.refreshSource(id: candidate.id, expectedSHA256: candidate.sha256, source: source)
                }
                return .refreshed(id: candidate.id, path: candidate.path)
            }
            return Self.event(
                try await repository.refreshSource(id: candidate.id, expectedSHA256: candidate.sha256, source: source), candidate, reasons: []
            )
        case .duplicate(let candidate, let sha256, let other, let reasons):
            if dryRun {
                return .duplicate(id: candidate.id, path: candidate.path, reasons: reasons, of: .init(entry: other, removed: candidate.sha256 == nil))
            }
            return Self.event(
                try await repository.resolveDuplicate(id: candidate.id, expectedSHA256: candidate.sha256, sha256: sha256), candidate, reasons: reasons
            )
        case .processed(let entry, let photo):
            let candidate = entry.candidate
            return Self.event(
                try await repository.replace(
                    id: candidate.id, expectedSHA256: candidate.sha256, expectedGuidance: candidate.guidance, with: photo, sha256: entry.sha256,
                    source: entry.source, guidance: nil),
                candidate, reasons: entry.reasons
            )
        case .processingFailed(let entry, let format, let facts, let error):
            let (candidate, problem) = (entry.candidate, EventProblem(error))
            // A sticker made from these very bytes stays: a failed re-run (a missing model, a new pipeline
            // that finds no subject) must not lose it. New bytes, or a failure retried, are recorded.
            if entry.keepsSticker {
                return .failed(id: candidate.id, path: candidate.path, reasons: entry.reasons, error: problem)
            }
            let outcome = try await repository.replaceWithFailure(
                id: candidate.id, expectedSHA256: candidate.sha256, expectedGuidance: candidate.guidance, sha256: entry.sha256,
                source: entry.source, format: format, facts: facts, code: problem.code, message: problem.message
            )
            return Self.event(outcome, candidate, reasons: entry.reasons, failure: problem)
        }
    }

    private static func event(
        _ outcome: ReprocessOutcome, _ candidate: ReprocessCandidate, reasons: [StaleReason], failure: EventProblem? = nil
    ) -> ReprocessEvent {
        let (id, path) = (candidate.id, candidate.path)
        switch outcome {
        case .replaced: return .reprocessed(id: id, path: path, reasons: reasons)
        case .sourceRefreshed: return .refreshed(id: id, path: path)
        case .failed:
            return .failed(id: id, path: path, reasons: reasons, error: failure ?? EventProblem(code: "failed", message: ""))
        case .duplicate(let other, let removed):
            return .duplicate(id: id, path: path, reasons: reasons, of: .init(entry: other, removed: removed))
        case .changedMeanwhile:
            return .failed(
                id: id, path: path, reasons: reasons,
                error: EventProblem(code: "changed-meanwhile", message: "another process changed this entry during the run; run reprocess again")
            )
        }
    }
}
