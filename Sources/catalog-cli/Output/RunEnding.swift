import ArgumentParser
import Catalog

/// How a long run (import, enqueue, reprocess, work, copy) ends, the same way for each: its summary on
/// stdout (a JSON line with --json, else a sentence unless --quiet), then, in this order, a failed
/// stdout or stderr (74 / 141), an interruption (130 / 143), and failed items.
struct RunEnding {
    let output: RunOutputOptions
    let trap: SignalTrap

    /// What the run tells people at its end.
    struct Messages {
        /// The summary sentence (for stdout, without --json or --quiet); nil: none.
        var sentence: String?
        /// What was kept, for the line a failed stdout or stderr ends the run with.
        var kept: String
        /// What was done and how to go on, after "interrupted by SIGINT: ".
        var interrupted: String
    }

    /// Writes the summary, then throws the exit the run ends with: the failed output's, the signal's,
    /// or `failure` (1, or 65 when nothing was usable); returns when all went well.
    func finish(_ summary: some Encodable, interrupted: Bool, _ messages: Messages, failure: ExitStatus? = nil) throws {
        if output.json {
            Terminal.standardOutput.write(JSONOutput.line(summary))
        } else if !output.quiet, let sentence = messages.sentence {
            Terminal.standardOutput.write(sentence)
        }
        OutputFailure.exitIfFailed(done: messages.kept)
        if interrupted {
            Diagnostics.report("interrupted by \(trap.signalName): \(messages.interrupted)")
            throw ExitCode(trap.exitCode)
        }
        if let failure { throw ExitCode(failure) }
    }
}
