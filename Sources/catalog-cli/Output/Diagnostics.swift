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
        return exit(reporting: error)
    }

    /// Reports a pack failure and returns its exit code.
    static func exit(for error: PackError) -> ExitCode { exit(reporting: error) }

    /// Reports an export failure and returns its exit code.
    static func exit(for error: ExportError) -> ExitCode { exit(reporting: error) }

    /// The value of a catalog, pack or export call, or its failure reported and turned into the
    /// exit code that goes with it; any other error is passed on as it is.
    static func reporting<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as CatalogError {
            throw exit(for: error)
        } catch let error as PackError {
            throw exit(for: error)
        } catch let error as ExportError {
            throw exit(for: error)
        }
    }

    /// Writes the error's message and returns the exit ``ExitStatus/of(_:)`` gives it.
    private static func exit(reporting error: any LocalizedError) -> ExitCode {
        report("error: " + (error.errorDescription ?? "\(error)"))
        return ExitCode(.of(error))
    }
}
