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

    /// `requiringImage`: a file whose first bytes are no known image or clip format is refused before the rest is
    /// read (a preview of a replaced source must not read gigabytes to say "not an image").
    static func read(path: String, requiringImage: Bool = false) -> Result<SourceBytes, SourceReadError> {
        let descriptor: Int32
        var info = stat()
        switch openRegular(path, info: &info) {
        case .success(let opened): descriptor = opened
        case .failure(let problem): return .failure(problem)
        }
        defer { close(descriptor) }
        let size = Int64(info.st_size)
        guard size <= maximumFileSize else {
            return .failure(SourceReadError(code: "too-large", message: "file is \(size) bytes, more than the \(maximumFileSize)-byte limit"))
        }
        if requiringImage {
            var head = [UInt8](repeating: 0, count: 64)
            let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, 0) }
            if count < 0 { return .failure(unreadable(errno)) }
            let start = Array(head.prefix(count))
            guard ImageFormat.detect(start) != nil || AnimationFormat.detect(start) != nil else {
                return .failure(SourceReadError(code: "unsupported-format", message: "not an image: its first bytes are no known image or clip format"))
            }
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
        // Nothing to identify it by: each empty file fails on its own, never as a copy of another.
        if bytes.isEmpty { return .failure(SourceReadError(code: "empty", message: "empty file (0 bytes)")) }
        return .success(SourceBytes(
            source: SourceFile(path: path, size: Int64(bytes.count), modificationTime: modificationTime),
            bytes: bytes
        ))
    }

    /// Opens `path` for reading only when it is a regular file: what it is is looked at first (a FIFO,
    /// socket or device is refused as `not-a-file` without opening it), and the open itself never blocks
    /// (O_NONBLOCK, in case the path was swapped for a FIFO meanwhile; fstat(2) on the opened descriptor
    /// decides, then blocking reads are restored). `info` is the opened file's stat.
    static func openRegular(_ path: String, info: inout stat) -> Result<Int32, SourceReadError> {
        switch FileKind.of(path) {
        case .special(let what): return .failure(notAFile(what))
        case .folder: return .failure(SourceReadError(code: "not-a-file", message: "is a folder"))
        case .missing: return .failure(SourceReadError(code: "unreadable", message: "no such file"))
        case .regular, .inaccessible: break
        }
        let descriptor = EscapedPath.withSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard descriptor >= 0 else { return .failure(unreadable(errno)) }
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            return .failure(unreadable(code))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            if case .special(let what) = FileKind.of(mode: info.st_mode, size: 0) { return .failure(notAFile(what)) }
            return .failure(SourceReadError(code: "not-a-file", message: "is a folder"))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .success(descriptor)
    }

    private static func notAFile(_ what: String) -> SourceReadError {
        SourceReadError(code: "not-a-file", message: "is \(what), not a regular file")
    }

    private static func unreadable(_ code: Int32) -> SourceReadError {
        SourceReadError(code: "unreadable", message: FileKind.plainReason(code))
    }
}
