import Foundation

/// Writes planned parts into the output folder: each part is built under a hidden temporary name
/// beside its target, then renamed into place, so a reader never sees half an export. An existing
/// target is refused unless `force`, checked for every part before anything is written.
enum ExportWriter {
    /// Writes every part; returns the final paths, in order.
    static func write(_ parts: [PlannedPart], into directory: URL, force: Bool) throws(ExportError) -> [String] {
        switch FileKind.of(directory.path) {
        case .folder: break
        case .regular: throw .io(path: directory.path, reason: "not a folder (it is a file); --output names the folder to write into")
        case .special(let what): throw .io(path: directory.path, reason: "not a folder (it is \(what))")
        case .inaccessible(let why): throw .io(path: directory.path, reason: why)
        case .missing:
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw .io(path: directory.path, reason: reason(error))
            }
        }
        let targets = try parts.map { part throws(ExportError) in try target(part.fileName, in: directory) }
        // A device, FIFO, socket or symbolic link where a part would go is never replaced, even with
        // --force, nor a folder by a file (a zip); --force replaces an earlier export or a file.
        for (part, target) in zip(parts, targets) {
            var info = stat()
            guard lstat(target.path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                throw .io(path: target.path, reason: "is a symbolic link; it is never replaced, even with --force")
            }
            switch FileKind.of(mode: info.st_mode, size: 0) {
            case .special(let what):
                throw .io(path: target.path, reason: "is \(what), not a regular file or folder; it is never replaced, even with --force")
            case .folder where part.container == .zip:
                throw .io(path: target.path, reason: "is a folder; it is never replaced by a file, even with --force")
            default: break
            }
        }
        if !force, let existing = targets.first(where: exists) {
            throw .outputExists(path: existing.path)
        }
        var written: [String] = []
        for (part, target) in zip(parts, targets) {
            try write(part, to: target, in: directory)
            written.append(target.path)
        }
        return written
    }

    /// `directory/name`, refused unless it is a direct child of `directory`.
    static func target(_ name: String, in directory: URL) throws(ExportError) -> URL {
        guard ExportPath.isSafeRelative(name), !name.contains("/") else { throw .unsafePath(name) }
        let url = directory.appendingPathComponent(name).standardizedFileURL
        guard url.deletingLastPathComponent().path == directory.standardizedFileURL.path else { throw .unsafePath(name) }
        return url
    }

    private static func write(_ part: PlannedPart, to target: URL, in directory: URL) throws(ExportError) {
        let token = UUID().uuidString.prefix(8)
        let temporary = directory.appendingPathComponent(".\(part.fileName).tmp-\(getpid())-\(token)")
        let previous = directory.appendingPathComponent(".\(part.fileName).old-\(getpid())-\(token)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        do {
            switch part.container {
            case .zip:
                let archive = try ZipArchiveBuilder.archive(part.files)
                try Data(archive).write(to: temporary, options: .withoutOverwriting)
            case .folder:
                try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
                for (path, bytes) in part.files {
                    try ExportPath.check(path)
                    let file = temporary.appendingPathComponent(path)
                    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(bytes).write(to: file, options: .withoutOverwriting)
                }
            }
            try syncAndClose(temporary)
        } catch let error as ExportError {
            throw error
        } catch {
            throw .io(path: target.path, reason: reason(error))
        }
        // A file replaces a file atomically with rename(2); anything else is moved aside first.
        var movedAside = false
        if exists(target) {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder)
            if isFolder.boolValue || part.container == .folder {
                guard rename(target.path, previous.path) == 0 else {
                    throw .io(path: target.path, reason: "cannot move the old export aside: \(String(cString: strerror(errno)))")
                }
                movedAside = true
            }
        }
        guard rename(temporary.path, target.path) == 0 else {
            let message = String(cString: strerror(errno))
            if movedAside { _ = rename(previous.path, target.path) }
            throw .io(path: target.path, reason: message)
        }
        if movedAside { try? FileManager.default.removeItem(at: previous) }
    }

    /// Flushes a written file (or every file of a written folder) to disk before the rename.
    private static func syncAndClose(_ url: URL) throws {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        let paths: [String]
        if isFolder.boolValue {
            paths = (FileManager.default.subpaths(atPath: url.path) ?? []).map { url.appendingPathComponent($0).path }
        } else {
            paths = [url.path]
        }
        for path in paths {
            let descriptor = open(path, O_RDONLY)
            if descriptor >= 0 {
                fsync(descriptor)
                close(descriptor)
            }
        }
    }

    /// Whether something (a file, folder or link, even a dangling one) is at `url`.
    static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    private static func reason(_ error: any Error) -> String {
        FileKind.plainReason(of: error)
    }
}
