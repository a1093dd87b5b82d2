/// Whether an entry's last processing succeeded.
public enum EntryStatus: String, Sendable, Codable, Equatable {
    /// The entry has a sticker, its EXIF and its palette.
    case ok
    /// Processing failed; the entry carries a failure code and message.
    case failed

    /// The status stored in `photo.status`; an unknown value (from a newer schema) reads as failed.
    init(storedValue: String) {
        self = EntryStatus(rawValue: storedValue) ?? .failed
    }
}

/// Which entries `EntryStore.entries(_:)` lists.
public enum EntryFilter: Sendable, Equatable {
    /// Every entry.
    case all
    /// Only entries whose processing failed.
    case failed
}
