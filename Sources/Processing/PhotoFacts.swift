/// What a photo's bytes say about it, known once they decode: kept in the catalog whatever becomes
/// of its sticker (no subject, a failed encode...).
public struct PhotoFacts: Sendable, Equatable {
    public var format: ImageFormat
    /// Full-resolution upright size.
    public var width: Int
    public var height: Int
    public var exif: ExifMetadata?
}
