import Foundation

/// Where output goes, and whether a person is watching it.
struct Terminal: Sendable {
    let descriptor: Int32

    static let standardOutput = Terminal(descriptor: STDOUT_FILENO)
    static let standardError = Terminal(descriptor: STDERR_FILENO)

    /// True when this stream is a terminal (then colours and progress bars are welcome).
    var isInteractive: Bool { isatty(descriptor) == 1 }

    /// True when colour may be written here: a terminal that understands escapes (TERM is not `dumb`),
    /// and no `NO_COLOR` set to a non-empty value (https://no-color.org).
    var allowsColor: Bool {
        let environment = ProcessInfo.processInfo.environment
        return isInteractive && environment["NO_COLOR", default: ""].isEmpty && environment["TERM"] != "dumb"
    }

    /// True when a progress bar may be drawn here: a terminal that understands escapes (TERM is not `dumb`).
    var allowsProgress: Bool { isInteractive && ProcessInfo.processInfo.environment["TERM"] != "dumb" }

    /// Columns of the terminal, or 80.
    var width: Int {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Writes all of `text`, retrying short writes; output errors (a closed pipe) are ignored.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        bytes.withUnsafeMutableBytes { buffer in
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                offset += count
            }
        }
    }
}

/// Writes `Encodable` values as JSON: sorted keys, ISO dates, no escaped slashes.
enum JSONOutput {
    static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// One compact JSON object on its own line (for NDJSON event streams).
    static func line(_ value: some Encodable) -> String {
        guard let data = try? encoder(pretty: false).encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A whole JSON document, pretty-printed.
    static func document(_ value: some Encodable) -> String {
        guard let data = try? encoder(pretty: true).encode(value) else { return "null\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
