import Foundation
import Processing

/// How `catalog serve` runs: where it listens, its limits, and what the import and reprocess jobs use.
public struct ServerConfiguration: Sendable {
    /// The address to listen on. Loopback unless the user names another (the CLI warns then).
    public var host: String
    /// The port; 0 lets the system pick a free one.
    public var port: Int
    /// The largest file an upload may hold, in bytes (`--max-upload`).
    public var maxUploadBytes: Int
    /// Where uploaded photos are kept, named by their SHA-256, so the catalog's paths stay valid.
    public var uploadsDirectory: URL
    /// The per-run secret every state-changing request carries in `X-Catalog-Token`.
    public var token: String
    /// Photos processed at once by an import or reprocess job.
    public var jobs: Int
    /// The segmentation model of this run in place of the catalog's `cutout.model` (`serve --model`,
    /// `$STICKER_MODEL`); nil: the catalog's.
    public var model: CutoutModel?
    /// The arithmetic of this run's cut-outs in place of the catalog's `cutout.precision` (`serve
    /// --precision`, resolved on this machine); nil: the catalog's.
    public var precision: InferencePrecision?
    /// The named segmentation model in the given precision, for the jobs (asked for when a job starts).
    public var makePredictor: @Sendable (CutoutModel, InferencePrecision) throws -> any MaskPredictor
    /// How long a connection may keep the server waiting (`--header-timeout`, `--body-timeout`, `--idle-timeout`).
    public var timeouts = ConnectionTimeouts.standard
    /// The catalog as `serve` names it (its path or address): an upload accepted for it and not imported
    /// when the server stopped is imported by the next `serve` of the same catalog, not of another.
    public var catalogIdentity = ""
    /// How long requests in flight get to finish after SIGINT or SIGTERM (`--shutdown-grace`).
    public var shutdownGrace: Duration = .seconds(10)
    /// How much the HTTP layer logs (`trace` ... `critical`, as `$LOG_LEVEL` says); nil or unknown: warnings.
    public var logLevel: String?

    public static let defaultMaxUploadBytes = 200 * 1024 * 1024

    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxUploadBytes: Int = defaultMaxUploadBytes,
        uploadsDirectory: URL, token: String = ServerConfiguration.newToken(),
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, model: CutoutModel? = nil, precision: InferencePrecision? = nil,
        makePredictor: @escaping @Sendable (CutoutModel, InferencePrecision) throws -> any MaskPredictor
    ) {
        self.host = host
        self.port = port
        self.maxUploadBytes = maxUploadBytes
        self.uploadsDirectory = uploadsDirectory
        self.token = token
        self.jobs = max(1, jobs)
        self.model = model
        self.precision = precision
        self.makePredictor = makePredictor
    }

    /// 32 random bytes as hex: a fresh token for each run.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Whether `host` is a loopback address or name: the only kind served without a warning.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }
}
