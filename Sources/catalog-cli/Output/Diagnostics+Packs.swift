import ArgumentParser
import Catalog

extension Diagnostics {
    /// Reports a pack failure and returns its exit code.
    static func exit(for error: PackError) -> ExitCode {
        report("error: " + (error.errorDescription ?? "\(error)"))
        return ExitCode(error.exitCode)
    }

    /// Reports an export failure and returns its exit code.
    static func exit(for error: ExportError) -> ExitCode {
        report("error: " + (error.errorDescription ?? "\(error)"))
        return ExitCode(error.exitCode)
    }
}
