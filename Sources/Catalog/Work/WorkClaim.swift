import Processing

/// One file of the shared work queue (`catalog import --enqueue`) or one stale entry, that a worker
/// holds under a lease.
public struct WorkClaim: Sendable, Equatable {
    /// The queue row.
    public var id: Int64
    /// The file as it was enqueued (path, size, modification time; for a stale entry its path only).
    public var source: SourceFile
    /// The stale entry to reprocess; nil for a file to import.
    public var entryID: Int64? = nil
    /// The fencing token: the row's claim counter when this claim was made. A result commits only while
    /// the row still carries it (no other worker has claimed the file since).
    public var fence: Int64

    public init(id: Int64, source: SourceFile, entryID: Int64? = nil, fence: Int64) {
        self.id = id
        self.source = source
        self.entryID = entryID
        self.fence = fence
    }
}

/// What a worker learnt of a claimed file, committed with ``CatalogStore/completeWork(_:holder:with:)``
/// in one transaction with the check of its fencing token.
public enum WorkResult: Sendable {
    /// New bytes, processed: recorded as ``CatalogStore/recordProcessed(_:sha256:source:)`` does.
    case processed(ProcessedPhoto, sha256: String, source: SourceFile)
    /// Bytes the catalog has (entry `id`): recorded as ``CatalogStore/noteDuplicate(id:source:)`` does.
    case known(id: Int64, source: SourceFile)
    /// Bytes that could not be processed: recorded as ``CatalogStore/recordFailure(sha256:source:format:facts:code:message:)``.
    case failed(sha256: String?, PhotoFailure)
    /// A stale entry re-made: committed as the matching reprocess method does, checked against the hash
    /// the entry had when it was read.
    case reprocess(ReprocessStep)
    /// A file this worker cannot read (missing on its mount, no permission): only the queue row records
    /// it, as failed with `message` (which names the host).
    case unreadable(message: String)
}

/// How a ``CatalogStore/completeWork(_:holder:with:)`` ended.
public enum WorkCommit: Sendable, Equatable {
    /// The result is recorded (`outcome` nil for an unreadable file) and the queue row is done or failed.
    case committed(ImportOutcome?)
    /// A stale entry's result is recorded (or found changed meanwhile), and the queue row is done.
    case reprocessed(ReprocessOutcome)
    /// The claim is no longer this worker's (its lease ran out and another worker claimed the file, or it
    /// was released): nothing was written.
    case fenced
    /// The row was already finished under this very claim: an earlier attempt of this commit landed, but
    /// the connection broke before its answer came (the worker retried after reconnecting). Nothing more
    /// was written; `resultID` is the entry that attempt recorded.
    case committedEarlier(resultID: Int64?)
}

/// What `catalog import --enqueue` did with one batch of files.
public struct EnqueueCount: Sendable, Equatable {
    /// Files now pending (new, or changed since they were last done).
    public var added: Int
    /// Files already pending or claimed, or already imported with the same size and time: left as they were.
    public var unchanged: Int

    public init(added: Int = 0, unchanged: Int = 0) {
        self.added = added
        self.unchanged = unchanged
    }
}

/// What reprocessing one stale entry changes, as ``CatalogStore/replace(id:expectedSHA256:with:sha256:source:)`` and
/// its siblings would, unless the entry's hash is no longer `expectedSHA256` (or its guidance `expectedGuidance`).
public struct ReprocessStep: Sendable {
    /// The change itself.
    public enum Change: Sendable {
        case replace(ProcessedPhoto, sha256: String, source: SourceFile)
        case fail(sha256: String, PhotoFailure)
        case refreshSource(SourceFile)
        case resolveDuplicate(sha256: String)
        /// Nothing to write on the entry (a failed re-run keeps the sticker it has): only the queue row, as failed.
        case keep(message: String)
    }

    public var entryID: Int64
    public var expectedSHA256: String?
    /// The guidance the new content was made with: a `catalog recut` meanwhile is not overwritten. nil: not checked.
    public var expectedGuidance: CutoutGuidance?
    public var change: Change

    public init(entryID: Int64, expectedSHA256: String?, expectedGuidance: CutoutGuidance? = nil, change: Change) {
        self.entryID = entryID
        self.expectedSHA256 = expectedSHA256
        self.expectedGuidance = expectedGuidance
        self.change = change
    }
}

/// Why a photo could not be made into a sticker, with what its bytes told before the failure: what a
/// failed entry records.
public struct PhotoFailure: Sendable {
    public var source: SourceFile
    public var format: ImageFormat?
    /// What the bytes told before the failure (nil when they did not decode).
    public var facts: PhotoFacts?
    public var code: String
    public var message: String

    public init(source: SourceFile, format: ImageFormat?, facts: PhotoFacts?, code: String, message: String) {
        self.source = source
        self.format = format
        self.facts = facts
        self.code = code
        self.message = message
    }

    /// The message with its code, as the work queue's row keeps it.
    var rowMessage: String { "\(message) [\(code)]" }
}
