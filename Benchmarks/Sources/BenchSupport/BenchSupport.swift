#if canImport(Glibc)
import Glibc
#endif

/// Clocks, percentiles and a repeatable generator shared by the benchmark programs (`search-bench`,
/// `work-bench`, `cutout-bench`), so that they time and summarise alike.
public enum BenchClock {
    /// Monotonic wall time, in seconds.
    public static func wallSeconds() -> Double { read(CLOCK_MONOTONIC) }

    /// CPU time of this process (all threads), in seconds.
    public static func cpuSeconds() -> Double { read(CLOCK_PROCESS_CPUTIME_ID) }

    private static func read(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// The value at fraction `p` (0…1) of `values` sorted, the nearest rank; 0 for no values.
public func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// A fixed-seed generator (64-bit LCG, top bits): the same numbers every run, so benchmarks fill the same
/// catalogs and write the same bytes.
public struct BenchGenerator {
    private var state: UInt64 = 0x5EED

    public init() {}

    public mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }

    /// A number in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}
