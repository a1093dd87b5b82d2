import Processing

/// An entry's photo as guidance needs it, for `recut` and the page's preview alike: its upright size and
/// hash as recorded, and its source bytes read and checked against that hash.
enum EntrySource {
    /// The entry's recorded upright size and hash; `.noPhoto` when its photo was never decoded.
    static func photo(of entry: EntryDetail) throws(RecutError) -> (width: Int, height: Int, sha256: String) {
        guard let width = entry.width, let height = entry.height, let sha256 = entry.sha256 else {
            throw .noPhoto(id: entry.id, reason: entry.failure.map { "\($0.message) [\($0.code)]" } ?? "no size recorded")
        }
        return (width, height, sha256)
    }

    /// The entry's source read; a file that is gone, unreadable or now holds other bytes is refused, since
    /// guidance set on one photo must not be applied to another.
    static func read(_ entry: EntryDetail, sha256: String) throws(RecutError) -> SourceBytes {
        let read: SourceBytes
        switch SourceReader.read(path: entry.path) {
        case .success(let bytes): read = bytes
        case .failure(let problem):
            if !EscapedPath.exists(entry.path) { throw .sourceMissing(id: entry.id, path: entry.path) }
            throw .sourceUnreadable(id: entry.id, path: entry.path, message: problem.message)
        }
        guard Importer.hexDigest(read.bytes) == sha256 else { throw .sourceChanged(id: entry.id, path: entry.path) }
        return read
    }
}
