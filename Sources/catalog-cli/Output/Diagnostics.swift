import ArgumentParser
import Catalog
import Foundation

/// Messages for people on stderr, and the exit codes that go with failures.
enum Diagnostics {
    /// Writes `catalog: MESSAGE` to stderr.
    static func report(_ message: String) {
        Terminal.standardError.write("catalog: " + message + "\n")
    }

    /// Reports a catalog failure and returns the exit code scripts rely on.
    static func exit(for error: CatalogError) -> ExitCode {
        if case .busy = error, let signal = LockWaits.interruptingSignal {
            // The wait for the lock was ended by the signal, not by the timeout: an interruption.
            report("interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT") while waiting for the catalog's lock; finished work is kept")
            return ExitCode(128 + signal)
        }
        report("error: " + (error.errorDescription ?? "\(error)"))
        return ExitCode(error.exitCode)
    }
}

/// Exit codes of PRODUCT.md that commands raise themselves (64 comes from ArgumentParser, 75 from CatalogError).
enum ExitStatus {
    static let someFailed = ExitCode(1)
    static let dataError = ExitCode(65)
    static let ioError = ExitCode(74)
    /// EX_UNAVAILABLE: the segmentation model is not installed or is damaged.
    static let unavailable = ExitCode(69)
}
