/// The moved-file rule both back ends apply when known bytes are met again at `source`: the same
/// bytes elsewhere are a move only when the recorded file is gone; a second copy leaves the entry
/// where it was (or two copies would swap the path on every import).
struct SourceRefresh: Equatable {
    /// Whether the entry's path, size or modification time are to be rewritten.
    var writes: Bool
    /// Whether the entry now points at another path (`ImportOutcome.duplicate(pathUpdated:)`).
    var pathUpdated: Bool

    /// The decision for an entry recorded at `path` with `size` and `modificationTime`; `exists` says
    /// whether a file is still at a path (the file system's answer, passed in so the rule stays pure).
    static func plan(
        path: String, size: Int64, modificationTime: Double, seenAt source: SourceFile, exists: (String) -> Bool = EscapedPath.exists
    ) -> SourceRefresh {
        guard path != source.path else {
            return SourceRefresh(writes: size != source.size || modificationTime != source.modificationTime, pathUpdated: false)
        }
        let moved = !exists(path)
        return SourceRefresh(writes: moved, pathUpdated: moved)
    }
}
