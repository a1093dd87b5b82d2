import Foundation
import Synchronization

/// A one-line progress bar on stderr (count, rate, ETA), drawn only when stderr is a terminal
/// and at most ten times a second.
final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var lastDrawn: ContinuousClock.Instant?
        var visible = false
    }

    private let total: Int
    private let label: String
    private let started = ContinuousClock.now
    private let terminal = Terminal.standardError
    private let state = Mutex(State())

    /// nil when stderr is not a terminal (or a dumb one), or when `quiet`: then nothing is drawn at all.
    static func forStandardError(total: Int, label: String, quiet: Bool = false) -> ProgressBar? {
        wanted(quiet: quiet) ? ProgressBar(total: total, label: label) : nil
    }

    /// Whether a bar would be drawn (so that work done only for the bar, such as counting files, can be skipped).
    static func wanted(quiet: Bool) -> Bool { !quiet && Terminal.standardError.allowsProgress }

    private init(total: Int, label: String) {
        self.total = total
        self.label = label
    }

    /// Counts one finished item and redraws if due.
    func advance() {
        let line: String? = state.withLock { state in
            state.done += 1
            let now = ContinuousClock.now
            if let last = state.lastDrawn, now - last < .milliseconds(100), state.done < total { return nil }
            state.lastDrawn = now
            state.visible = true
            return render(done: state.done, elapsed: now - started)
        }
        if let line { terminal.write("\r\u{1B}[2K" + line) }
    }

    /// Prints a message above the bar (the bar is redrawn on the next advance).
    func interject(_ message: String) {
        let visible = state.withLock { $0.visible }
        terminal.write((visible ? "\r\u{1B}[2K" : "") + message)
    }

    /// Removes the bar.
    func finish() {
        let visible = state.withLock { state in
            defer { state.visible = false }
            return state.visible
        }
        if visible { terminal.write("\r\u{1B}[2K") }
    }

    private func render(done: Int, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        var eta = "--:--"
        if rate > 0, total >= done {
            let left = Int((Double(total - done) / rate).rounded())
            eta = String(format: "%d:%02d", left / 60, left % 60)
        }
        return String(format: "%@ %@ %d/%d  %.1f/s  ETA %@", label, bar, done, total, rate, eta)
    }
}
