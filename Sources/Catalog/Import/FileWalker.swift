import Foundation

/// The files named by import arguments: files as given, folders walked recursively in name order.
/// Every entry a walk meets is accounted for: a file to read, or a skip with its reason (hidden names,
/// special files, the catalog's own files). Names that are not UTF-8 are walked under their escaped form
/// (`EscapedPath`). Symbolic links to folders are not followed (no cycles).
struct FileWalker: Sequence, Sendable {
    /// An argument that names nothing that exists, or a folder that cannot be listed.
    struct Unreadable: Sendable {
        let path, message: String
    }

    /// Something met in a walk and deliberately not read, with a reason code and words.
    struct Skipped: Sendable {
        let path, code, message: String
    }

    enum Item: Sendable {
        case file(String)
        case unreadable(Unreadable)
        case skipped(Skipped)
        /// An argument that is a device, FIFO or socket: the user named it, so it fails (`not-a-file`).
        case notAFile(Skipped)
    }

    let arguments: [String]
    /// The catalog's own file, whose database, journals and copies are never imported.
    var catalogPath: String? = nil

    func makeIterator() -> Iterator {
        Iterator(pending: arguments.reversed().map { Self.absolute($0) }.map { .argument($0) }, catalogPath: catalogPath.map(Self.absolute))
    }

    /// Walks depth first, one folder listing at a time, so memory grows with depth, not with the file count.
    struct Iterator: IteratorProtocol {
        enum Pending {
            case argument(String)
            case entry(String)
            /// A skip found while listing a folder, reported in its turn.
            case skip(Skipped)
        }

        var pending: [Pending]
        let catalogPath: String?

        mutating func next() -> Item? {
            while let item = pending.popLast() {
                switch item {
                case .argument(let path):
                    switch FileKind.of(path) {
                    case .missing:
                        return .unreadable(Unreadable(path: path, message: "no such file or folder"))
                    case .inaccessible(let reason):
                        return .unreadable(Unreadable(path: path, message: reason))
                    case .special(let what):
                        return .notAFile(Skipped(path: path, code: "not-a-file", message: "is \(what), not a regular file"))
                    case .folder:
                        if let problem = pushChildren(of: path) { return .unreadable(problem) }
                    case .regular:
                        if let own = ownFile(path) { return .skipped(own) }
                        return .file(path)
                    }
                case .entry(let path):
                    var info = stat()
                    guard EscapedPath.withSystemPath(path, { lstat($0, &info) }) == 0 else {
                        return .unreadable(Unreadable(path: path, message: FileKind.plainReason(errno)))
                    }
                    switch info.st_mode & S_IFMT {
                    case S_IFDIR:
                        if let problem = pushChildren(of: path) { return .unreadable(problem) }
                    case S_IFREG:
                        if let own = ownFile(path) { return .skipped(own) }
                        return .file(path)
                    case S_IFLNK:
                        // A link to a file is imported; a link to a folder is not followed (no cycles).
                        switch FileKind.of(path) {
                        case .regular:
                            if let own = ownFile(path) { return .skipped(own) }
                            return .file(path)
                        case .folder: return .skipped(Skipped(path: path, code: "link-to-folder", message: "a symbolic link to a folder (not followed)"))
                        case .missing: return .skipped(Skipped(path: path, code: "dangling-link", message: "a symbolic link to nothing"))
                        case .special(let what): return .skipped(Skipped(path: path, code: "not-a-file", message: "a symbolic link to \(what)"))
                        case .inaccessible(let reason): return .unreadable(Unreadable(path: path, message: reason))
                        }
                    default:
                        if case .special(let what) = FileKind.of(mode: info.st_mode, size: 0) {
                            return .skipped(Skipped(path: path, code: "not-a-file", message: "is \(what), not a regular file"))
                        }
                    }
                case .skip(let skipped):
                    return .skipped(skipped)
                }
            }
            return nil
        }

        /// The catalog's database, its -wal/-shm/-journal files, the copies kept before migrations, and
        /// any SQLite database (a backup the catalog wrote is one): never photos, never imported.
        private func ownFile(_ path: String) -> Skipped? {
            if let catalogPath {
                let own = [catalogPath, catalogPath + "-wal", catalogPath + "-shm", catalogPath + "-journal"]
                if own.contains(path) || path.hasPrefix(catalogPath + ".pre-") {
                    return Skipped(path: path, code: "catalog-file", message: "the catalog's own file")
                }
            }
            for suffix in ["-wal", "-shm", "-journal"] where path.hasSuffix(suffix) {
                if Self.isSQLite(String(path.dropLast(suffix.count))) {
                    return Skipped(path: path, code: "catalog-file", message: "the journal of a catalog (SQLite database)")
                }
            }
            if Self.isSQLite(path) {
                return Skipped(path: path, code: "catalog-file", message: "an SQLite database (a catalog or its backup), not a photo")
            }
            return nil
        }

        /// Whether the regular file at `path` starts with SQLite's magic string (16 bytes read, never blocks).
        static func isSQLite(_ path: String) -> Bool {
            guard case .regular(let size) = FileKind.of(path), size >= 16 else { return false }
            let descriptor = EscapedPath.withSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            var header = [UInt8](repeating: 0, count: 16)
            let count = read(descriptor, &header, 16)
            return count == 16 && header == Array("SQLite format 3\0".utf8)
        }

        private mutating func pushChildren(of folder: String) -> Unreadable? {
            let listing: FolderListing
            switch FolderListing.read(folder) {
            case .success(let names): listing = names
            case .failure(let reason): return Unreadable(path: folder, message: "cannot list folder: \(reason)")
            }
            let base = folder.hasSuffix("/") ? folder : folder + "/"
            var children: [Pending] = listing.names.sorted().map { name in
                name.hasPrefix(".")
                    ? .skip(Skipped(path: base + name, code: "hidden", message: "a hidden name (starts with a dot)"))
                    : .entry(base + name)
            }
            // Names that are not UTF-8 are walked too, under their escaped form (see EscapedPath).
            children += listing.undecodable.sorted().map { escaped in
                escaped.hasPrefix(".")
                    ? .skip(Skipped(path: base + escaped, code: "hidden", message: "a hidden name (starts with a dot)"))
                    : .entry(base + escaped)
            }
            pending.append(contentsOf: children.reversed())
            return nil
        }
    }

    static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.standardizedFileURL.path
    }
}
