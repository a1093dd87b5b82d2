import Foundation

/// What a path names, seen with lstat(2) (and stat(2) through a symbolic link), in the plain words
/// messages use. Every command looks at a path this way before it opens or replaces anything.
public enum FileKind: Equatable, Sendable {
    case missing
    case regular(size: Int64)
    case folder
    /// A device, FIFO or socket: never read as a photo, never replaced.
    case special(String)
    /// lstat(2) failed for another reason than a missing file ("permission denied", ...).
    case inaccessible(String)

    /// What is at `path`, following a symbolic link to what it points at (a dangling link is `missing`).
    public static func of(_ path: String) -> FileKind {
        var info = stat()
        guard EscapedPath.withSystemPath(path, { stat($0, &info) }) == 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .inaccessible(plainReason(code))
        }
        return of(mode: info.st_mode, size: Int64(info.st_size))
    }

    /// The kind a stat(2) mode describes.
    public static func of(mode: mode_t, size: Int64) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: .regular(size: size)
        case S_IFDIR: .folder
        case S_IFIFO: .special("a FIFO (named pipe)")
        case S_IFSOCK: .special("a socket")
        case S_IFCHR: .special("a character device")
        case S_IFBLK: .special("a block device")
        default: .special("not a regular file")
        }
    }

    /// A system error in plain words: "permission denied", "disk full", "is a folder", ...
    public static func plainReason(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case ENOENT: "no such file or folder"
        case ENOTDIR: "a part of the path is not a folder"
        case EISDIR: "is a folder"
        case ENOSPC, EDQUOT: "disk full"
        case EROFS: "read-only file system"
        case EEXIST: "it exists"
        case ENAMETOOLONG: "name too long"
        case ELOOP: "too many symbolic links"
        case EIO: "input/output error"
        case EPIPE: "closed pipe"
        case ENXIO: "no reader on the other end (not a regular file)"
        default: String(cString: strerror(code)).lowercased()
        }
    }

    /// A Foundation error in plain words: never its domain or code.
    public static func plainReason(of error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
            return plainReason(underlying.code.rawValue)
        }
        if let error = error as? POSIXError { return plainReason(error.code.rawValue) }
        if let error = error as? CocoaError {
            switch error.code {
            case .fileWriteOutOfSpace: return "disk full"
            case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
            case .fileNoSuchFile, .fileReadNoSuchFile: return "no such folder"
            case .fileWriteFileExists: return "it exists"
            case .fileWriteVolumeReadOnly: return "read-only file system"
            default: break
            }
        }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain { return plainReason(Int32(underlying.code)) }
        return "the operation failed"
    }
}
