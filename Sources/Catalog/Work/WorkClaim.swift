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
}

/// What a worker learnt of a claimed file, committed with ``WorkQueueStore/completeWork(_:holder:with:)``
/// in one transaction with the check of its fencing token.
public enum WorkResult: Sendable {
    /// New bytes, processed: recorded as ``EntryStore/recordProcessed(_:sha256:source:)`` does.
    case processed(ProcessedPhoto, sha256: String, source: SourceFile)
    /// Bytes the catalog has (entry `id`): recorded as ``EntryStore/noteDuplicate(id:source:)`` does.
    case known(id: Int64, source: SourceFile)
    /// Bytes that could not be processed: recorded as ``EntryStore/recordFailure(sha256:source:format:facts:code:message:)``.
    case failed(sha256: String?, PhotoFailure)
    /// A stale entry re-made: committed as the matching reprocess method does, checked against the hash
    /// the entry had when it was read.
    case reprocess(ReprocessStep)
    /// A file this worker cannot read (missing on its mount, no permission): only the queue row records
    /// it, as failed with `message` (which names the host).
    case unreadable(message: String)
}

/// How a ``WorkQueueStore/completeWork(_:holder:with:)`` ended.
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
    public var added = 0
    /// Files already pending or claimed, or already imported with the same size and time: left as they were.
    public var unchanged = 0
}
