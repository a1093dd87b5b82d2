import Foundation

/// `catalog import --enqueue`: walks the arguments as an import does (same walker, same skips and
/// failures), and records every file as pending work with its size and modification time, without
/// reading it. Files go to the catalog in batches, each one transaction, so 100,000 files take seconds.
public struct Enqueuer: Sendable {
    let repository: any WorkQueueStore
    /// Files per transaction.
    var batchSize: Int

    public init(repository: any WorkQueueStore, batchSize: Int = 2000) {
        self.repository = repository
        self.batchSize = max(1, batchSize)
    }

    /// Enqueues what the arguments name; `onEvent` hears of each file skipped or failed (not of the
    /// enqueued ones: there may be millions). Stops between batches when the task is cancelled.
    public func run(_ arguments: [String], onEvent: @Sendable (ImportEvent) -> Void) async throws(CatalogError) -> EnqueueSummary {
        var summary = EnqueueSummary()
        var batch: [SourceFile] = []
        func flush() async throws(CatalogError) {
            let count = try await repository.enqueue(batch)
            summary.enqueued += count.added
            summary.unchanged += count.unchanged
            batch.removeAll(keepingCapacity: true)
        }
        for item in FileWalker(arguments: arguments, catalogPath: repository.displayName) {
            if Task.isCancelled {
                summary.interrupted = true
                break
            }
            switch item {
            case .file(let path):
                switch Self.source(of: path) {
                case .success(let source): batch.append(source)
                case .failure(let problem): summary.report(.failed(id: nil, path: path, code: "unreadable", message: problem.message), onEvent)
                }
            case .unreadable(let problem):
                summary.report(.failed(id: nil, path: problem.path, code: "unreadable", message: problem.message), onEvent)
            case .notAFile(let problem):
                summary.report(.failed(id: nil, path: problem.path, code: problem.code, message: problem.message), onEvent)
            case .skipped(let skipped):
                summary.report(.skipped(path: skipped.path, code: skipped.code, message: skipped.message), onEvent)
            }
            if batch.count >= batchSize { try await flush() }
        }
        if !batch.isEmpty { try await flush() }
        return summary
    }

    /// The file's size and modification time, as stat(2) gives them (the import reads the same ones).
    static func source(of path: String) -> Result<SourceFile, EnqueueProblem> {
        var info = stat()
        let status = EscapedPath.withSystemPath(path) { stat($0, &info) == 0 ? 0 : errno }
        guard status == 0 else {
            return .failure(EnqueueProblem(message: String(cString: strerror(status))))
        }
        let modificationTime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return .success(SourceFile(path: path, size: Int64(info.st_size), modificationTime: modificationTime))
    }

    /// Why a file could not be looked at.
    struct EnqueueProblem: Error {
        let message: String
    }
}

/// What `catalog import --enqueue` did. JSON keys are the property names, with `"event": "summary"`.
public struct EnqueueSummary: Sendable, Equatable, TaggedEvent {
    /// Files now pending.
    public var enqueued = 0
    /// Files already pending, or already imported unchanged.
    public var unchanged = 0
    /// Files met and deliberately not enqueued (hidden, special, the catalog's own).
    public var skipped = 0
    /// Arguments or files that could not be looked at.
    public var failed = 0
    /// True when a signal stopped the walk; what was enqueued stays.
    public var interrupted = false

    mutating func report(_ event: ImportEvent, _ onEvent: @Sendable (ImportEvent) -> Void) {
        switch event {
        case .skipped: skipped += 1
        default: failed += 1
        }
        onEvent(event)
    }

    public var eventName: String { "summary" }

    public var eventFields: [JSONField] {
        [("enqueued", enqueued), ("unchanged", unchanged), ("skipped", skipped), ("failed", failed),
         ("interrupted", interrupted)]
    }
}
