import Processing

/// One processed photo for ``EntryStore/recordProcessed(batch:)``.
public struct ProcessedEntry: Sendable {
    public var photo: ProcessedPhoto
    public var sha256: String
    public var source: SourceFile

    public init(photo: ProcessedPhoto, sha256: String, source: SourceFile) {
        self.photo = photo
        self.sha256 = sha256
        self.source = source
    }
}
