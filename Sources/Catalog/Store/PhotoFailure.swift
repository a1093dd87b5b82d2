import Processing

/// Why a photo could not be made into a sticker, with what its bytes told before the failure: what a
/// failed entry records.
public struct PhotoFailure: Sendable {
    public var source: SourceFile
    public var format: ImageFormat?
    /// What the bytes told before the failure (nil when they did not decode).
    public var facts: PhotoFacts?
    public var code: String
    public var message: String

    /// The message with its code, as the work queue's row keeps it.
    var rowMessage: String { "\(message) [\(code)]" }
}
