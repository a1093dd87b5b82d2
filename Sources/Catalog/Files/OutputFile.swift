import Foundation

/// Why an output file was not written. Nothing was changed at the destination.
public struct OutputFileError: Error, Sendable, Equatable, LocalizedError {
    public let path: String
    public let reason: String

    public var errorDescription: String? { "\(path): \(reason); nothing was written" }
}

/// Writes files that belong to the user the careful way: only ever a regular file, never through
/// or over a device, FIFO, socket or folder (even with `force`); an existing file only with `force`;
/// the bytes go to a temporary file in the same folder, which is synced, then renamed into place,
/// so the destination is either as it was or complete.
public enum OutputFile {
    /// Why `path` may not be written (nil when it may): a special file or folder always, an
    /// existing file without `force`, a missing or non-folder parent.
    public static func refusal(_ path: String, force: Bool) -> OutputFileError? {
        if path.isEmpty { return OutputFileError(path: "''", reason: "an empty path names no file") }
        switch FileKind.of(path) {
        case .folder:
            return OutputFileError(path: path, reason: "is a folder; name a file")
        case .special(let what):
            return OutputFileError(path: path, reason: "is \(what), not a regular file; it is never replaced, even with --force")
        case .inaccessible(let reason):
            return OutputFileError(path: path, reason: reason)
        case .regular where !force:
            return OutputFileError(path: path, reason: "it exists; use --force to replace it")
        case .regular, .missing:
            break
        }
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        switch FileKind.of(folder) {
        case .folder: return nil
        case .missing: return OutputFileError(path: path, reason: "no such folder: \(folder)")
        case .inaccessible(let reason): return OutputFileError(path: path, reason: "its folder \(folder): \(reason)")
        case .regular, .special: return OutputFileError(path: path, reason: "\(folder) is not a folder")
        }
    }

    /// Writes `bytes` to `path` (see the type's rules). A symbolic link at `path` to a regular file is
    /// replaced by the new file, as `cp --remove-destination` would; its target is left alone.
    public static func write(_ bytes: [UInt8], to path: String, force: Bool) throws(OutputFileError) {
        if let refusal = refusal(path, force: force) { throw refusal }
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw OutputFileError(path: path, reason: "cannot create a file in \(folder): \(FileKind.plainReason(errno))") }
        var failure: Int32? = writeAll(bytes, to: descriptor)
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if let failure {
            unlink(temporary)
            throw OutputFileError(path: path, reason: FileKind.plainReason(failure))
        }
        // Looked at again just before the rename: something may have appeared meanwhile.
        if let refusal = refusal(path, force: force) {
            unlink(temporary)
            throw refusal
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw OutputFileError(path: path, reason: FileKind.plainReason(code))
        }
        syncFolder(folder)
    }

    /// Writes every byte, retrying short and interrupted writes; the errno of a failure.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        return bytes.withUnsafeBytes { buffer -> Int32? in
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { return EIO }
                offset += count
            }
            return nil
        }
    }

    /// Makes the rename itself durable.
    public static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}
