import Foundation

/// Reading one file a user named, the way the import reads photos: only a regular file, looked at
/// before it is opened, and an open that never blocks (see `SourceReader`).
public enum InputFile {
    /// The bytes of the regular file at `path`, or why not in plain words ("is a FIFO (named pipe),
    /// not a regular file", "permission denied", "empty file (0 bytes)").
    public static func read(_ path: String) -> Result<[UInt8], OutputFileError> {
        switch SourceReader.read(path: path) {
        case .success(let read): .success(read.bytes)
        case .failure(let problem): .failure(OutputFileError(path: path, reason: problem.message))
        }
    }

    /// All of standard input (a pipe, a file or a terminal), or why not.
    public static func readStandardInput() -> Result<[UInt8], OutputFileError> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(STDIN_FILENO, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(OutputFileError(path: "standard input", reason: FileKind.plainReason(errno)))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if Int64(bytes.count) > SourceReader.maximumFileSize {
                return .failure(OutputFileError(path: "standard input", reason: "more than the \(SourceReader.maximumFileSize)-byte limit"))
            }
        }
        return .success(bytes)
    }
}
