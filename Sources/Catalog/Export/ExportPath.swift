/// File names inside an export. Names that come from a pack (its name) are sanitised into one
/// safe path component; every relative path an export writes (into a folder or a zip) is checked
/// to be relative, `/`-separated, without `.`/`..`/empty components, NUL or backslashes, so no
/// name can put a file outside the output folder.
public enum ExportPath {
    /// Longest component we write (file systems allow 255 bytes; room is left for suffixes).
    static let maxComponentLength = 100

    /// `name` as one safe file name component: ASCII letters, digits, `-`, `_` and `.` kept, every
    /// other character (`/`, NUL, Unicode look-alikes of `/` and `.`) replaced by `_`, no leading
    /// `.` or `-`, at most 100 characters, never empty.
    public static func component(_ name: String) -> String {
        var scalars = name.unicodeScalars.map { scalar -> Character in
            let allowed = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_" || scalar == "."
            return allowed ? Character(scalar) : "_"
        }
        while let first = scalars.first, first == "." || first == "-" { scalars.removeFirst() }
        var result = String(scalars.prefix(maxComponentLength))
        if result.isEmpty || result.allSatisfy({ $0 == "_" || $0 == "." }) { result = "pack" + result }
        return result
    }

    /// Whether `path` is a safe relative path for a file inside an export.
    public static func isSafeRelative(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.unicodeScalars.contains("\0") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part != "." && part != ".." && part.utf8.count <= 255
        }
    }

    /// Throws unless `path` is a safe relative path.
    static func check(_ path: String) throws(ExportError) {
        guard isSafeRelative(path) else { throw .unsafePath(path) }
    }
}
