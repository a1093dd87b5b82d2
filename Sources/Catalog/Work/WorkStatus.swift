/// The shared work queue at a glance (`catalog work --status`, and `stats`). JSON keys are the property names.
public struct WorkStatus: Sendable, Equatable, Encodable {
    /// The files one worker holds.
    public struct Holder: Sendable, Equatable, Encodable {
        /// `host:pid` of the worker.
        public var holder: String
        /// Files it holds.
        public var claimed: Int
        /// When its latest lease runs out (ISO 8601 UTC); after that other workers may take the files.
        public var leaseUntil: String
        /// True when every lease it holds has run out (the worker is probably gone).
        public var expired: Bool
    }

    public var pending: Int
    public var claimed: Int
    public var done: Int
    public var failed: Int
    /// Who holds the claimed files, by holder.
    public var holders: [Holder]
    /// Failed files with the reason (which names the host that failed them), oldest first, at most 100.
    public var failures: [Failure]

    /// A file the queue records as failed.
    public struct Failure: Sendable, Equatable, Encodable {
        public var path: String
        public var message: String
    }

    /// Nothing pending and nothing claimed: every worker may stop (unless it follows the queue).
    public var isDrained: Bool { pending == 0 && claimed == 0 }
}
