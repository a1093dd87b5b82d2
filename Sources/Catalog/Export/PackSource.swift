import Processing

/// A pack as an export or a preview reads it, in one transaction: its stickers in order with their
/// stored PNG, palette, emoji and a summary of their source.
public struct PackSource: Sendable {
    public var name: String
    public var title: String
    public var author: String
    public var items: [Item]

    /// One sticker of the pack.
    public struct Item: Sendable {
        /// The entry's id.
        public var id: Int64
        /// 1-based place in the pack.
        public var position: Int
        public var emoji: [String]
        /// The sticker as stored (PNG).
        public var png: [UInt8]
        public var width: Int
        public var height: Int
        /// The long side its settings give a full-size sticker (`sticker.size`); a sticker whose
        /// subject was small in its photo is smaller. nil when unknown (taken as full size).
        public var fullSize: Int?
        public var palette: Palette
        public var source: SourceSummary
        /// The moving sticker, for an entry made from a clip or an animation; its first frame is `png`.
        public var animation: AnimatedSticker? = nil
    }
}

/// What an export's manifest says about a sticker's source photo. Deliberately without the
/// file's path (it names folders and users) and without GPS (a shared pack must not reveal where
/// the photos were taken).
public struct SourceSummary: Sendable, Equatable, Codable {
    public var sha256: String?
    public var format: String?
    public var width, height: Int?
    public var exif: ExifSummary?

    /// The camera and the moment, from the EXIF.
    public struct ExifSummary: Sendable, Equatable, Codable {
        /// Who made the camera and lens, and when the photo was taken (as ``ExifMetadata`` has them).
        public var make, model, lensModel, takenAt: String?
        /// How it was taken: seconds, f-number, ISO speed, millimetres.
        public var exposureTime, fNumber: Double?
        public var iso: Int?
        public var focalLength: Double?
    }
}
