/// What committing one reprocessed entry did to the catalog.
public enum ReprocessOutcome: Sendable, Equatable {
    /// The entry now holds the new sticker, palette, EXIF and photo fields.
    case replaced
    /// The bytes were the same (the file was only touched): the recorded size and modification time were updated.
    case sourceRefreshed
    /// The entry is now recorded as failed (its new bytes, or a retried failure, failed again).
    case failed
    /// The source's new bytes are those of entry `of`; `removed` when this entry was a placeholder for an
    /// unreadable file and was removed (the bytes are catalogued there), else this entry was left as it was.
    case duplicate(of: Int64, removed: Bool)
    /// Another process changed or removed the entry while it was being reprocessed: nothing was written.
    case changedMeanwhile
}
