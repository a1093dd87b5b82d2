import Foundation

/// The files named by import arguments: files as given, folders walked recursively in name order.
/// Hidden entries (names starting with ".") inside folders are skipped; symbolic links to folders are not followed.
struct FileWalker: Sequence, Sendable {
    /// An argument that names nothing that exists, or a folder that cannot be listed.
    struct Unreadable: Sendable {
        let path: String
        let message: String
    }

    enum Item: Sendable {
        case file(String)
        case unreadable(Unreadable)
    }

    let arguments: [String]

    func makeIterator() -> Iterator {
        Iterator(pending: arguments.reversed().map { Self.absolute($0) }.map { .argument($0) })
    }

    /// Walks depth first, one folder listing at a time, so memory grows with depth, not with the file count.
    struct Iterator: IteratorProtocol {
        enum Pending {
            case argument(String)
            case entry(String)
        }

        var pending: [Pending]

        mutating func next() -> Item? {
            while let item = pending.popLast() {
                switch item {
                case .argument(let path):
                    var isDirectory: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                        return .unreadable(Unreadable(path: path, message: "no such file or directory"))
                    }
                    guard isDirectory.boolValue else { return .file(path) }
                    if let problem = pushChildren(of: path) { return .unreadable(problem) }
                case .entry(let path):
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    switch info.st_mode & S_IFMT {
                    case S_IFDIR:
                        if let problem = pushChildren(of: path) { return .unreadable(problem) }
                    case S_IFREG: return .file(path)
                    case S_IFLNK:
                        // A link to a file is imported; a link to a folder is not followed (no cycles).
                        var target = stat()
                        if stat(path, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG { return .file(path) }
                    default: continue
                    }
                }
            }
            return nil
        }

        private mutating func pushChildren(of folder: String) -> Unreadable? {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder)
            } catch {
                return Unreadable(path: folder, message: "cannot list folder: \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
            }
            let visible = names.filter { !$0.hasPrefix(".") }.sorted()
            let base = folder.hasSuffix("/") ? folder : folder + "/"
            pending.append(contentsOf: visible.reversed().map { .entry(base + $0) })
            return nil
        }
    }

    static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.standardizedFileURL.path
    }
}
