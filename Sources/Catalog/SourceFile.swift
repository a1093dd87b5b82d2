/// Where a photo's bytes were read from, as recorded with its entry (metadata: identity is the hash).
public struct SourceFile: Sendable, Equatable {
    /// The file's path, as given (absolute paths make moves recognisable across working directories).
    public var path: String
    /// The file's size in bytes when read.
    public var size: Int64
    /// The file's modification time when read, in seconds since 1970.
    public var modificationTime: Double

    /// A source file as stat(2) saw it.
    public init(path: String, size: Int64, modificationTime: Double) {
        self.path = path
        self.size = size
        self.modificationTime = modificationTime
    }
}
