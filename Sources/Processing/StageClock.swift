import Glibc
import Synchronization

/// An optional CPU clock for the import pipeline's stages, for the benchmarks' stage table.
///
/// Off unless started with a report file (the CLI does for `STICKER_STAGE_TIMES=FILE`): then each stage adds
/// the CPU time of the thread that ran it (`CLOCK_THREAD_CPUTIME_ID`, so time spent waiting for a core
/// or for the other job does not count), and the import writes the totals to FILE when it ends. Stages
/// are synchronous stretches of code that never nest, so nothing is counted twice. Off, a stage costs
/// one load of a constant.
public enum StageClock {
    /// The pipeline's stages, in the order a photo meets them.
    public enum Stage: Int, CaseIterable, Sendable {
        case readAndHash, decode, orientAndColor, resize, network, refine, decontaminate, render, encode, palette, signature, exif, commit

        /// The stage's name in the report.
        public var name: String {
            switch self {
            case .readAndHash: "read + SHA-256"
            case .decode: "decode (scaled)"
            case .orientAndColor: "orientation and colour"
            case .resize: "resize to working size"
            case .network: "network"
            case .refine: "mask refinement/clean-up"
            case .decontaminate: "decontamination"
            case .render: "crop/outline/shadow"
            case .encode: "sticker PNG encode"
            case .palette: "palette"
            case .signature: "similarity signature"
            case .exif: "EXIF"
            case .commit: "catalog lookup + commit"
            }
        }
    }

    /// Where the report goes; nil: the clock is off.
    public static var reportPath: String? { report.withLock { $0 } }
    /// Whether the clock is on: one relaxed load per stage when it is off.
    public static var isEnabled: Bool { enabled.load(ordering: .relaxed) }

    private static let report = Mutex<String?>(nil)
    private static let enabled = Atomic<Bool>(false)

    /// Turns the clock on, for the whole process: the import writes its totals to `path` when it ends.
    /// Called once, before any work starts.
    public static func start(reportingTo path: String) {
        report.withLock { $0 = path }
        enabled.store(true, ordering: .relaxed)
    }

    private static let totals = Mutex<[Double]>([Double](repeating: 0, count: Stage.allCases.count))

    /// Runs `body`, adding the CPU time this thread spent in it to `stage` when the clock is on.
    @inline(__always)
    public static func measure<T, E: Error>(_ stage: Stage, _ body: () throws(E) -> T) throws(E) -> T {
        guard isEnabled else { return try body() }
        let start = threadSeconds()
        defer {
            let spent = threadSeconds() - start
            totals.withLock { $0[stage.rawValue] += spent }
        }
        return try body()
    }

    /// CPU seconds per stage so far.
    public static func snapshot() -> [(stage: Stage, seconds: Double)] {
        let values = totals.withLock { $0 }
        return Stage.allCases.map { ($0, values[$0.rawValue]) }
    }

    /// Writes the totals as tab-separated lines (`stage-name<TAB>seconds`, then `photos<TAB>count`) to
    /// the report file; does nothing when the clock is off.
    public static func writeReport(photos: Int) {
        guard let reportPath, let file = fopen(reportPath, "w") else { return }
        defer { fclose(file) }
        for (stage, seconds) in snapshot() {
            fputs("\(stage.name)\t\(seconds)\n", file)
        }
        fputs("photos\t\(photos)\n", file)
    }

    private static func threadSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
