import Processing
import Synchronization

extension Worker {
    /// Reads and re-makes a claimed stale entry as `reprocess` does; nil when interrupted before a result.
    static func reexamine(
        _ claim: WorkClaim, _ candidate: ReprocessCandidate?, host: String, repository: any EntryStore & ReprocessStore, processor: PhotoProcessor,
        options: ReprocessOptions
    ) async -> WorkResult? {
        guard let candidate else {
            return .unreadable(message: "entry \(claim.entryID ?? 0) is no longer stale or no longer there")
        }
        let step = { (change: ReprocessStep.Change) in
            WorkResult.reprocess(ReprocessStep(
                entryID: candidate.id, expectedSHA256: candidate.sha256, expectedGuidance: candidate.guidance, change: change))
        }
        switch await Reprocessor.examine(candidate, repository: repository, processor: processor, options: options) {
        case .skipped, .wouldProcess:
            return nil
        case .missing:
            return .unreadable(message: "source missing on host \(host) [source-missing]")
        case .readFailed(_, let code, let message):
            return .unreadable(message: "cannot be read on host \(host): \(message) [\(code)]")
        case .touched(_, let source):
            return step(.refreshSource(source))
        case .duplicate(_, let sha256, _, _):
            return step(.resolveDuplicate(sha256: sha256))
        case .processed(let entry, let photo):
            return step(.replace(photo, sha256: entry.sha256, source: entry.source))
        case .processingFailed(let entry, let format, let facts, let error):
            let problem = EventProblem(error)
            // As `reprocess`: a sticker made from these very bytes stays when a re-run fails.
            if entry.keepsSticker { return step(.keep(message: "\(problem.message) [\(problem.code)]")) }
            return step(.fail(
                sha256: entry.sha256, PhotoFailure(source: entry.source, format: format, facts: facts, code: problem.code, message: problem.message)))
        }
    }

    static func reprocessEvent(_ outcome: ReprocessOutcome, step: ReprocessStep, path: String, reasons: [StaleReason]) -> ReprocessEvent {
        let id = step.entryID
        switch (outcome, step.change) {
        case (.replaced, _):
            return .reprocessed(id: id, path: path, reasons: reasons)
        case (.sourceRefreshed, _):
            return .refreshed(id: id, path: path)
        case (.duplicate(let other, let removed), _):
            return .duplicate(id: id, path: path, reasons: reasons, of: .init(entry: other, removed: removed))
        case (.failed, .fail(_, let problem)):
            return .failed(id: id, path: path, reasons: reasons, error: EventProblem(code: problem.code, message: problem.message))
        case (.failed, .keep(let message)):
            return .failed(id: id, path: path, reasons: reasons, error: EventProblem(code: "failed", message: message))
        case (.failed, _):
            return .failed(id: id, path: path, reasons: reasons, error: EventProblem(code: "failed", message: "not reprocessed"))
        case (.changedMeanwhile, _):
            return .failed(
                id: id, path: path, reasons: reasons,
                error: EventProblem(code: "changed-meanwhile", message: "another process changed this entry during the run; it is looked at again next time"))
        }
    }
}

/// The stale entries a worker knows, by id: what it enqueued, and what it looks up when it claims an
/// entry another worker enqueued.
final class StaleCandidates: Sendable {
    private let known = Mutex<[Int64: ReprocessCandidate]>([:])

    /// Enqueues the catalog's stale entries whose source is there; the number of rows made pending.
    func enqueue(repository: any WorkQueueStore & ReprocessStore, settings: StickerSettings) async throws(CatalogError) -> Int {
        let candidates = try await refresh(repository: repository, settings: settings).filter { $0.source != .missing }
        return try await repository.enqueueStale(candidates)
    }

    /// The candidate for entry `id`, looking at the catalog again when it is not known; nil when the
    /// entry is not stale (any more).
    func candidate(_ id: Int64, repository: any ReprocessStore, settings: StickerSettings) async throws(CatalogError) -> ReprocessCandidate? {
        if let candidate = known.withLock({ $0[id] }) { return candidate }
        return try await refresh(repository: repository, settings: settings).first { $0.id == id }
    }

    func reasons(of id: Int64?) -> [StaleReason] {
        guard let id else { return [] }
        return known.withLock { $0[id]?.reasons ?? [] }
    }

    private func refresh(repository: any ReprocessStore, settings: StickerSettings) async throws(CatalogError) -> [ReprocessCandidate] {
        let candidates = try await repository.reprocessCandidates(settings: settings, all: false)
        known.withLock { known in
            for candidate in candidates { known[candidate.id] = candidate }
        }
        return candidates
    }
}

extension Worker {
    /// The event of a commit that had landed before the connection broke (``WorkCommit/committedEarlier(resultID:)``):
    /// what the result was meant to record, with the entry the row names.
    static func earlierEvent(_ id: Int64?, result: WorkResult, path: String, reasons: [StaleReason]) -> WorkEvent {
        switch result {
        case .processed:
            return .file(.imported(id: id, path: path))
        case .known(let known, _):
            return .file(.duplicate(id: id ?? known, path: path, moved: false))
        case .failed(_, let problem):
            return .file(.failed(id: id, path: path, code: problem.code, message: problem.message))
        case .unreadable(let message):
            return .file(.failed(id: id, path: path, code: "unreadable", message: message))
        case .reprocess(let step):
            let outcome: ReprocessOutcome = switch step.change {
            case .replace: .replaced
            case .refreshSource: .sourceRefreshed
            case .fail, .keep: .failed
            case .resolveDuplicate: .duplicate(of: id ?? step.entryID, removed: false)
            }
            return .reprocess(reprocessEvent(outcome, step: step, path: path, reasons: reasons))
        }
    }
}
