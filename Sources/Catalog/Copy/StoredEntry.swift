import Processing
/// One entry exactly as a catalog keeps it (its row, EXIF, sticker with its PNG, palette), whatever the
/// back end: what `catalog copy` moves between catalogs and what `verify`'s checksums are computed from.
/// Timestamps and JSON are the stored text, so a copy keeps them byte for byte.
public struct StoredEntry: Sendable, Equatable {
    /// The entry's id, kept by a copy (users and scripts know entries by it).
    public var id: Int64
    public var sha256: String?
    public var path: String
    public var fileSize: Int64
    public var fileMtime: Double
    public var format: String?
    public var width: Int?
    public var height: Int?
    /// `ok` or `failed` (``EntryStatus``).
    public var status: String
    public var failureCode: String?
    public var failureMessage: String?
    public var importedAt: String
    public var updatedAt: String
    public var decoderVersion: Int?
    /// The `exif` row as stored (its `photoId` is the entry's id).
    var exif: ExifRecord?
    public var sticker: StoredSticker?
    /// By rank, 0 (the largest share) first.
    public var palette: [StoredColor]
    /// The entry's cut-out guidance as stored (``CutoutGuidance``'s sorted-keys JSON); nil when it has none.
    public var guidanceJson: String?
    /// The entry's chosen part of a clip as stored (``ClipWindow``'s sorted-keys JSON); nil for the default part.
    public var clipJson: String?
}

/// An entry's sticker as stored: its metadata and its PNG.
public struct StoredSticker: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pipelineVersion: Int
    /// ``StickerSettings`` as sorted-keys JSON, as stored.
    public var settingsJson: String
    public var createdAt: String
    public var png: [UInt8]
    /// Its near-duplicate signature; nil for a sticker made before signatures.
    public var signature: SimilaritySignature?
    /// The moving sticker of an entry made from a clip (`png` is then its first frame).
    public var animation: AnimatedSticker?
}

/// One palette colour as stored (Oklab, 64-bit floats: both back ends keep them exactly).
public struct StoredColor: Sendable, Equatable {
    public var rank: Int
    public var hex: String
    public var l: Double
    public var a: Double
    public var b: Double
    public var share: Double
}
