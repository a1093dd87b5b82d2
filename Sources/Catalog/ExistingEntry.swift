/// What the catalog already knows about some bytes: enough for the import to decide what to do.
public struct ExistingEntry: Sendable, Equatable {
    /// The entry's id.
    public var id: Int64
    /// The path recorded for the bytes.
    public var path: String
    /// Whether the entry's processing succeeded.
    public var status: EntryStatus
    /// The file's size in bytes when recorded.
    public var fileSize: Int64
    /// The file's modification time when recorded, in seconds since 1970.
    public var modificationTime: Double
}
