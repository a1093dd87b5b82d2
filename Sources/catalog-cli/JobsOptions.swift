import ArgumentParser
import Foundation

/// `--jobs N` of the commands that process photos (import, reprocess, work): how many at once.
struct JobsOptions: ParsableArguments {
    @Option(
        parsing: .unconditional, help: "How many photos to process at once, 1 to 256 (the default is the number of cores).",
        transform: OptionValue.whole("--jobs", 1...256))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        if !(1...256).contains(jobs) { throw ValidationError("--jobs must be between 1 and 256, not \(jobs)") }
    }
}
