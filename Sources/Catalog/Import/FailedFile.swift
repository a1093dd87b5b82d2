import Processing

/// A file an import (or a worker) could not make a sticker of, with what is known of it, to be recorded
/// as a failed entry.
struct FailedFile: Sendable {
    /// The bytes' hash; nil when the file could not be read.
    var sha256: String? = nil
    var source: SourceFile
    var format: ImageFormat? = nil
    /// What the bytes told before the failure (nil when they did not decode).
    var facts: PhotoFacts? = nil
    /// Problems met before the failure, reported with the file.
    var warnings: [String] = []
    var code: String
    var message: String
    /// The entry recorded at the same path with other bytes (the file was edited in place), which the
    /// failure replaces.
    var replacing: PathClaim? = nil

    /// What a failed entry records of it.
    var failure: PhotoFailure { PhotoFailure(source: source, format: format, facts: facts, code: code, message: message) }
}
