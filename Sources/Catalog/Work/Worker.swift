import Foundation
import Processing
import Synchronization

/// How a worker runs.
public struct WorkOptions: Sendable {
    /// Files processed at once.
    public var jobs: Int
    /// How long a claim lasts without renewal; renewed every third of it while the work runs.
    public var lease: Duration
    /// Keep waiting for new work instead of stopping when the queue is drained.
    public var follow: Bool
    /// This machine's name, in failure messages and in `holder`.
    public var host: String
    /// Who holds the claims: `host:pid`.
    public var holder: String
    public var settings: StickerSettings
    public var maxPixels: Int
    public var predictor: (any MaskPredictor)?
    /// How long the worker keeps retrying while its catalog's server cannot be reached (see ``ServerOutage``).
    public var reconnectFor: Duration

    public init(
        jobs: Int, lease: Duration, follow: Bool, host: String, holder: String, settings: StickerSettings,
        maxPixels: Int = DecodeOptions.defaultMaxPixels, predictor: (any MaskPredictor)?, reconnectFor: Duration = .seconds(300)
    ) {
        self.jobs = max(1, jobs)
        self.lease = lease
        self.follow = follow
        self.reconnectFor = reconnectFor
        self.host = host
        self.holder = holder
        self.settings = settings
        self.maxPixels = maxPixels
        self.predictor = predictor
    }
}

/// `catalog work`: claims files of the shared queue under a lease, processes them as an import does,
/// and commits each result in one transaction that checks the claim's fencing token. Written once over
/// ``CatalogStore``; any number of workers, on any number of machines, may run on one catalog.
///
/// When the queue is drained, the worker enqueues the stale entries (as `reprocess` would run them; not
/// those whose source is missing) and processes them the same way, claimed and fenced. It does so once
/// per drain: an entry still stale after its re-run (a failure worth retrying) waits for the next one.
/// Stops when nothing is pending or claimed (unless `follow`). When its task is cancelled it claims
/// nothing more, commits what finished, and gives back every claim it still holds.
///
/// A server that goes away (a restart, a fail-over) does not stop it: each queue call and each commit is
/// retried, on a new connection, for up to ``WorkOptions/reconnectFor`` (``ServerOutage``). A file whose
/// result was ready is committed after the reconnection if its claim is still the worker's (the fencing
/// token says so); otherwise its result is discarded (`lost`). Nothing is recorded as failed because
/// the server was away: files are failed only for what their bytes or their reading did.
public struct Worker: Sendable {
    let repository: any WorkQueueStore & ReprocessStore & EntryStore
    let options: WorkOptions

    public init(repository: any WorkQueueStore & ReprocessStore & EntryStore, options: WorkOptions) {
        self.repository = repository
        self.options = options
    }

    /// Runs until the queue is drained (or, with `follow`, until cancelled). `onEvent` gets each file's
    /// event; `onNotice` an outage of the server and its end.
    public func run(
        onEvent: @Sendable (WorkEvent) -> Void, onNotice: @escaping @Sendable (WorkNotice) -> Void = { _ in }
    ) async throws(CatalogError) -> WorkSummary {
        let processor = PhotoProcessor(settings: options.settings, maxPixels: options.maxPixels, predictor: options.predictor)
        let outage = ServerOutage(patience: options.reconnectFor, notify: onNotice)
        let held = HeldClaims()
        let stale = StaleCandidates()
        let renewal = renewLeases(of: held)
        defer { renewal.cancel() }
        var summary = WorkSummary()
        let outcome = await loop(processor: processor, held: held, stale: stale, outage: outage, summary: &summary, onEvent: onEvent)
        renewal.cancel()
        // Whatever is still held (a file interrupted mid-way, or everything after a failed commit) goes back.
        let left = held.all
        // Signalled while the server is away: nothing can be given back, so the claims are left to their
        // leases and the worker still stops as interrupted (not as failed), at once.
        let signalledInOutage = { (error: CatalogError) in Task.isCancelled && error.isServerOutage }
        if !left.isEmpty {
            do {
                try await outage.retrying { () throws(CatalogError) in try await repository.releaseWork(left, holder: options.holder) }
                summary.released += left.count
            } catch {
                guard signalledInOutage(error) else { throw error }
                summary.leftClaimed += left.count
            }
        }
        if case .failure(let error) = outcome, !signalledInOutage(error) { throw error }
        summary.interrupted = Task.isCancelled
        return summary
    }

    private func loop(
        processor: PhotoProcessor, held: HeldClaims, stale: StaleCandidates, outage: ServerOutage, summary: inout WorkSummary,
        onEvent: @Sendable (WorkEvent) -> Void
    ) async -> Result<Void, CatalogError> {
        let repository = self.repository
        let host = options.host
        let reprocessOptions = ReprocessOptions(
            jobs: options.jobs, settings: options.settings, maxPixels: options.maxPixels, predictor: options.predictor)
        // The cores no file in flight holds, for a file's network to borrow (see `SpareCores`).
        let cores = SpareCores(jobs: options.jobs)
        return await withTaskGroup(of: (WorkClaim, WorkResult?).self) { group in
            var inFlight = 0
            var staleEnqueued = false
            /// Starts the work of files just claimed.
            func start(_ claims: [WorkClaim]) async throws(CatalogError) {
                for claim in claims {
                    held.add(claim)
                    inFlight += 1
                    if let entryID = claim.entryID {
                        let candidate = try await outage.retrying { () throws(CatalogError) in
                            try await stale.candidate(entryID, repository: repository, settings: options.settings)
                        }
                        group.addTask {
                            await cores.holding {
                                (claim, await Self.reexamine(claim, candidate, host: host, repository: repository, processor: processor,
                                                             options: reprocessOptions))
                            }
                        }
                    } else {
                        group.addTask {
                            await cores.holding { (claim, await Self.examine(claim, host: host, repository: repository, processor: processor)) }
                        }
                    }
                }
            }
            do throws(CatalogError) {
                while true {
                    if !Task.isCancelled, inFlight < options.jobs {
                        let limit = options.jobs - inFlight
                        try await start(try await outage.retrying { () throws(CatalogError) in
                            try await repository.claimWork(limit: limit, holder: options.holder, lease: options.lease)
                        })
                    }
                    if inFlight == 0 {
                        if try await idleRunIsOver(stale: stale, outage: outage, staleEnqueued: &staleEnqueued) { return .success(()) }
                        continue
                    }
                    guard let (claim, result) = await group.next() else { continue }
                    inFlight -= 1
                    guard let result else { continue }  // interrupted before a result: released at the end
                    // Retried through an outage: the fencing token decides whether the result still counts. The
                    // next files are claimed with the commit (in its transaction where the back end can), unless
                    // the worker is being stopped.
                    let limit = Task.isCancelled ? 0 : options.jobs - inFlight
                    let (commit, next) = try await outage.retrying { () throws(CatalogError) in
                        try await repository.completeWork(
                            claim, holder: options.holder, with: result, claimingNext: limit, lease: options.lease)
                    }
                    held.remove(claim)
                    try await start(next)
                    let event = Self.event(commit, claim: claim, result: result, reasons: stale.reasons(of: claim.entryID))
                    // New imports may make entries stale (or be stale themselves): look again at the next drain.
                    if claim.entryID == nil { staleEnqueued = false }
                    summary.count(event)
                    onEvent(event)
                }
            } catch {
                group.cancelAll()
                return .failure(error)
            }
        }
    }

    /// With nothing in flight: whether the run is over. Once the queue drains, the stale entries are
    /// enqueued (once until new imports come); otherwise the worker waits for claims held by others
    /// (perhaps by a worker that died: its lease runs out) or for new work.
    private func idleRunIsOver(
        stale: StaleCandidates, outage: ServerOutage, staleEnqueued: inout Bool
    ) async throws(CatalogError) -> Bool {
        if Task.isCancelled { return true }
        let repository = self.repository
        let settings = options.settings
        let status = try await outage.retrying { () throws(CatalogError) in try await repository.workStatus() }
        if status.isDrained && !staleEnqueued {
            staleEnqueued = true
            let added = try await outage.retrying { () throws(CatalogError) in
                try await stale.enqueue(repository: repository, settings: settings)
            }
            if added > 0 { return false }
        }
        if status.isDrained && !options.follow { return true }
        try await repository.waitForWork(timeout: options.follow ? .seconds(30) : .seconds(1))
        return false
    }

    /// Renews the leases of the claims held, every third of the lease, until cancelled.
    private func renewLeases(of held: HeldClaims) -> Task<Void, Never> {
        let repository = self.repository
        let options = self.options
        return Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: options.lease / 3)
                if Task.isCancelled { return }
                _ = try? await repository.renewLeases(held.all, holder: options.holder, lease: options.lease)
            }
        }
    }

    /// Reads, hashes and processes a claimed file as an import does; nil when interrupted before a result.
    static func examine(_ claim: WorkClaim, host: String, repository: any EntryStore, processor: PhotoProcessor) async -> WorkResult? {
        switch await Importer.examine(path: claim.source.path, repository: repository, processor: processor, clip: nil) {
        case .skipped:
            return nil
        case .processed(let photo, let sha256, let source, let edited?):
            // A file edited in place replaces its entry, as `import` does, cut out with the entry's guidance.
            return .reprocess(ReprocessStep(
                entryID: edited.id, expectedSHA256: edited.sha256, expectedGuidance: edited.guidance,
                change: .replace(photo, sha256: sha256, source: source)))
        case .processed(let photo, let sha256, let source, nil):
            return .processed(photo, sha256: sha256, source: source)
        case .known(let existing, let source):
            return .known(id: existing.id, source: source)
        case .failed(let file):
            guard let sha256 = file.sha256 else {
                // Not read at all: the file may be there for other machines (a mount missing here).
                let text = "cannot be read on host \(host): \(file.message)"
                if !EscapedPath.exists(file.source.path) { return .unreadable(message: "\(text) [\(file.code)]") }
                return .failed(sha256: nil, PhotoFailure(source: file.source, format: file.format, facts: nil, code: file.code, message: text))
            }
            if let edited = file.replacing {
                // The edited file fails (it no longer fits its guidance, say): its entry records why.
                return .reprocess(ReprocessStep(
                    entryID: edited.id, expectedSHA256: edited.sha256, expectedGuidance: edited.guidance,
                    change: .fail(sha256: sha256, file.failure)))
            }
            return .failed(sha256: sha256, file.failure)
        }
    }

    static func event(_ commit: WorkCommit, claim: WorkClaim, result: WorkResult, reasons: [StaleReason]) -> WorkEvent {
        let path = claim.source.path
        switch (commit, result) {
        case (.fenced, _):
            return .lost(path: path)
        case (.committedEarlier(let id), _):
            return earlierEvent(id, result: result, path: path, reasons: reasons)
        case (.reprocessed(.replaced), .reprocess(let step)) where claim.entryID == nil:
            // An enqueued file that was edited in place: `import` calls this an update.
            return .file(.updated(id: step.entryID, path: path))
        case (.reprocessed(let outcome), .reprocess(let step)):
            return .reprocess(reprocessEvent(outcome, step: step, path: path, reasons: reasons))
        case (.reprocessed, _):
            return .lost(path: path)
        case (.committed(.imported(let id)), _):
            return .file(.imported(id: id, path: path))
        case (.committed(.duplicate(let id, let moved)), _):
            return .file(.duplicate(id: id, path: path, moved: moved))
        case (.committed(.failed(let id)), .failed(_, let problem)):
            return .file(.failed(id: id, path: path, code: problem.code, message: problem.message))
        case (.committed(let outcome), .unreadable(let message)):
            return .file(.failed(id: outcome?.id, path: path, code: "unreadable", message: message))
        case (.committed(let outcome), _):
            return .file(.failed(id: outcome?.id, path: path, code: "failed", message: "not imported"))
        }
    }
}

/// The claims a worker holds, shared by its loop and its lease renewal.
final class HeldClaims: Sendable {
    private let claims = Mutex<[Int64: WorkClaim]>([:])

    func add(_ claim: WorkClaim) { claims.withLock { $0[claim.id] = claim } }
    func remove(_ claim: WorkClaim) { claims.withLock { $0[claim.id] = nil } }
    var all: [WorkClaim] { claims.withLock { Array($0.values) }.sorted { $0.id < $1.id } }
}
