import Foundation

extension ExitStatus {
    /// The codes as `catalog --help` (and so the man pages) lists them.
    static var helpText: String {
        "Exit codes:\n" + allCases.map { status in
            let code = status.codeText.padding(toLength: 10, withPad: " ", startingAt: 0)
            return "  \(code) \(status.name): \(status.meaning)"
        }.joined(separator: "\n")
    }

    /// The codes as the Markdown table of docs/exit-codes.md (between its `exit-codes` markers).
    static var markdownTable: String {
        (["| code | name | meaning |", "|---|---|---|"]
            + allCases.map { "| \($0.codeText) | \($0.name) | \($0.meaning) |" }).joined(separator: "\n")
    }
}
