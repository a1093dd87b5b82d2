import Catalog
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
    var allowsColor: Bool { allowsProgress && !CatalogEnvironment.current.forbidsColor }

    /// True when a progress bar may be drawn here: a terminal that understands escapes (TERM is not `dumb`).
    var allowsProgress: Bool { isInteractive && !CatalogEnvironment.current.isDumbTerminal }

    /// Columns of the terminal, or 80.
    var width: Int {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Writes all of `text`, retrying short and interrupted writes. A failed write (closed pipe, full
    /// disk) goes to ``OutputFailure``, which ends a short command or stops a long job; nothing traps.
    func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    /// Writes all of `bytes` (binary output such as `cutout -o -`), checked like ``write(_:)``.
    func write(bytes: [UInt8]) {
        if bytes.isEmpty || OutputFailure.hasFailed(descriptor) { return }
        var offset = 0
        let failure: Int32? = bytes.withUnsafeBytes { buffer -> Int32? in
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        // A non-blocking stream someone else set up: wait until it takes more.
                        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, 1000)
                        continue
                    }
                    return errno
                }
                if count == 0 { return EIO }
                offset += count
            }
            return nil
        }
        if let failure { OutputFailure.record(descriptor: descriptor, code: failure) }
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
