import Foundation

/// Every hook the tests set through the environment, in one place. They exist in debug builds only,
/// which is what the tests run: a release build (the package, `make install`) ignores them.
public enum TestHooks {
    /// `STICKER_TEST_PREDICTOR=centre`: a centred ellipse stands in for the segmentation network, for tests
    /// of the decoders and of the catalog over many files, where the network would add minutes and nothing else.
    public static var usesCentredPredictor: Bool {
        value("STICKER_TEST_PREDICTOR") == "centre"
    }

    /// `STICKER_TEST_MAX_PAGE_COUNT=N`: SQLite's page limit, so a test can fill "the disk" (SQLITE_FULL) at a
    /// chosen point without a small file system.
    public static var maxPageCount: Int? {
        value("STICKER_TEST_MAX_PAGE_COUNT").flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// `STICKER_TEST_SCAN_PAUSE=S`: seconds to pause before each page of the scan for stale entries, so a test
    /// can signal `reprocess` mid-scan.
    public static var scanPause: Double? {
        value("STICKER_TEST_SCAN_PAUSE").flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// `STICKER_TEST_COPY_BATCH_DELAY=S`: seconds after each step of `catalog copy`, so a test can interrupt a
    /// small copy in the middle.
    public static var copyBatchDelay: Double? {
        value("STICKER_TEST_COPY_BATCH_DELAY").flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
    }

    private static func value(_ name: String) -> String? {
        #if DEBUG
        return ProcessInfo.processInfo.environment[name]
        #else
        return nil
        #endif
    }
}
