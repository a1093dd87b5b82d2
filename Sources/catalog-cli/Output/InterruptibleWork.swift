import ArgumentParser
import Catalog

/// A long job (import, reprocess) run so that SIGINT/SIGTERM cancel it: no new work starts, finished
/// work is committed, and the caller then exits with ``SignalTrap/exitCode``. A failed write on stdout
/// or stderr stops it the same way (the caller then ends with ``OutputFailure/exitIfFailed(done:)``).
enum InterruptibleWork {
    /// Runs `body`, removes `progress` when it ends, and returns its value with the trap (which tells
    /// whether a signal came). A catalog failure is reported and becomes its exit code. `trap`: one
    /// installed earlier (a signal it already caught cancels `body` at once); nil installs one now.
    static func run<Value: Sendable>(
        progress: ProgressBar?, trap: SignalTrap? = nil, _ body: @escaping @Sendable () async throws(CatalogError) -> Value
    ) async throws -> (Value, SignalTrap) {
        let work = Task { () -> Result<Value, CatalogError> in
            do throws(CatalogError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        let trap = trap ?? SignalTrap()
        trap.cancelOnSignal { work.cancel() }
        // A closed pipe or a full disk on stdout/stderr stops the work the same way.
        OutputFailure.stopWork { work.cancel() }
        let outcome = await work.value
        progress?.finish()
        switch outcome {
        case .success(let value): return (value, trap)
        case .failure(let error): throw Diagnostics.exit(for: error)
        }
    }
}
