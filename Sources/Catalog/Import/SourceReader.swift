import Foundation
import Processing

/// A source file's bytes together with the size and modification time they were read at.
struct SourceBytes: Sendable {
    let source: SourceFile
    let bytes: [UInt8]
}

/// Why a source file could not be read at all.
struct SourceReadError: Error, Sendable {
    let code: String
    let message: String
}

/// Reads a whole file with POSIX calls, so that the size and mtime come from the same open file as the bytes.
enum SourceReader {
    /// Files larger than this are refused before reading: no photo we can decode is this big.
    static let maximumFileSize: Int64 = 1 << 30

    static func read(path: String) -> Result<SourceBytes, SourceReadError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(unreadable(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(unreadable(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(SourceReadError(code: "unreadable", message: "not a regular file"))
        }
        let size = Int64(info.st_size)
        guard size <= maximumFileSize else {
            return .failure(SourceReadError(code: "too-large", message: "file is \(size) bytes, more than the \(maximumFileSize)-byte limit"))
        }
        let modificationTime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        var bytes = [UInt8](repeating: 0, count: Int(size))
        var filled = 0
        let failure: Int32? = bytes.withUnsafeMutableBytes { buffer -> Int32? in
            while filled < buffer.count {
                let count = Foundation.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { break }  // the file shrank while we read it: keep what was there
                filled += count
            }
            return nil
        }
        if let failure { return .failure(unreadable(failure)) }
        if filled < bytes.count { bytes.removeSubrange(filled...) }
        return .success(SourceBytes(
            source: SourceFile(path: path, size: Int64(bytes.count), modificationTime: modificationTime),
            bytes: bytes
        ))
    }

    private static func unreadable(_ code: Int32) -> SourceReadError {
        SourceReadError(code: "unreadable", message: String(cString: strerror(code)))
    }
}
