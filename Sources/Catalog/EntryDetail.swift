import Processing

/// Everything `catalog show` tells about one entry. Its JSON (``jsonFields``) always has every key,
/// with `null` where unknown:
/// `{"id","sha256","path","status","failure":{"code","message"}|null,"format","width","height",
/// "exif":{"make","model","lensModel","takenAt","exposureTime","fNumber","iso","focalLength","orientation",
/// "gpsLatitude","gpsLongitude","gpsAltitude"},"sticker":{"width","height","bytes","pipelineVersion",
/// "settings"}|null,"palette":[{"hex","share"}],"guidance":{"box":{"x","y","width","height"}|null,"include":[{"x","y"}],
/// "exclude":[{"x","y"}]}|null,"clip":{"startSeconds","durationSeconds","maxFrames"}|null}` (`clip`: the part of a
/// clip chosen with `--clip`/`--max-frames`, null for the default part and for stills),
/// "livePhoto":{"stillId","clipId"}|null}` (the Live Photo pair the entry belongs to).
public struct EntryDetail: Sendable, Equatable, JSONObject {
    /// Why processing failed.
    public struct Failure: Sendable, Equatable, Encodable {
        /// The stable failure code (`corrupt-image`, `unreadable`, ...).
        public var code: String
        /// The message for users.
        public var message: String
    }

    /// The sticker's metadata (its PNG comes from `EntryStore.stickerPNG(id:)`).
    public struct Sticker: Sendable, Equatable, Encodable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Size of the PNG in bytes.
        public var bytes: Int
        /// The pipeline version that made it.
        public var pipelineVersion: Int
        /// The settings it was made with.
        public var settings: StickerSettings
        /// When it was made (ISO 8601 UTC); not in the JSON.
        public var createdAt: String
        /// The frames and timing of an animated sticker; absent for a still.
        public var animation: Animation? = nil

        private enum CodingKeys: String, CodingKey {
            case width, height, bytes, pipelineVersion, settings, animation
        }
    }

    /// An animated sticker's frames and timing (its moving form comes from `EntryStore.animation(id:)`).
    public struct Animation: Sendable, Equatable, Encodable {
        /// How many frames it has.
        public var frames: Int
        /// Frames a second, on average.
        public var frameRate: Double
        /// One loop's running time in milliseconds.
        public var durationMs: Int

        init(frames: Int, durationMs: Int) {
            self.frames = frames
            self.durationMs = durationMs
            frameRate = (Double(frames) * 1000 / Double(max(1, durationMs)) * 100).rounded() / 100
        }
    }

    /// One palette colour, largest share first.
    public struct Color: Sendable, Equatable, Encodable {
        /// `#rrggbb`.
        public var hex: String
        /// Fraction of the subject, in (0, 1].
        public var share: Double
        /// Oklab lightness; not in the JSON.
        public var l: Double
        /// Oklab green–red axis; not in the JSON.
        public var a: Double
        /// Oklab blue–yellow axis; not in the JSON.
        public var b: Double

        private enum CodingKeys: String, CodingKey {
            case hex, share
        }
    }

    /// The entry's id.
    public var id: Int64
    /// SHA-256 of the bytes, lower-case hex; nil when the file could not be read.
    public var sha256: String?
    /// The path recorded for the bytes.
    public var path: String
    /// Whether processing succeeded.
    public var status: EntryStatus
    /// Why processing failed; nil when it succeeded.
    public var failure: Failure?
    /// The format found in the bytes (`jpeg`, `png`, ...); nil when unknown.
    public var format: String?
    /// Oriented full-resolution width; nil when the image could not be decoded.
    public var width: Int?
    /// Oriented full-resolution height; nil when the image could not be decoded.
    public var height: Int?
    /// The photo's EXIF; nil when it has none (the JSON then has an `exif` object of nulls).
    public var exif: ExifMetadata?
    /// The sticker; nil when there is none (a failed entry).
    public var sticker: Sticker?
    /// Dominant colours, largest share first; empty without a sticker.
    public var palette: [Color]
    /// The source file's size in bytes when recorded; not in the JSON.
    public var fileSize: Int64
    /// The source file's modification time when recorded, in seconds since 1970; not in the JSON.
    public var modificationTime: Double
    /// When the entry was first recorded (ISO 8601 UTC); not in the JSON.
    public var importedAt: String
    /// When the entry last changed (ISO 8601 UTC); not in the JSON.
    public var updatedAt: String
    /// The box and points every cut-out of the entry applies (`catalog recut`); nil when it has none.
    public var guidance: CutoutGuidance? = nil
    /// The part of a clip every cut-out of the entry takes (`--clip`, `--max-frames`); nil for the default
    /// part (the first 3 seconds, at most 90 frames) and for stills.
    public var clip: ClipWindow? = nil
    /// The Live Photo pair this entry is half of (its still and its clip entry); nil when it is not one.
    public var livePhoto: LivePhoto? = nil

    /// An iPhone Live Photo as two entries: the still (HEIC/JPEG) and the clip (MOV) beside it.
    public struct LivePhoto: Sendable, Equatable, Encodable {
        /// The still photo's entry.
        public var stillId: Int64
        /// The clip's entry.
        public var clipId: Int64
    }

    /// Every EXIF tag as display text, keyed `IFD.TagName`; not in the JSON.
    public var allTags: [String: String] { exif?.tags ?? [:] }

    /// Every key, `null` where unknown; `exif` is always an object, and `guidance`'s `box` is null, not
    /// missing, when only points were given.
    public var jsonFields: [JSONField] {
        // The keys a `list` line has, written the same way.
        EntrySummary(id: id, sha256: sha256, path: path, status: status).jsonFields + [
            ("failure", failure), ("format", format), ("width", width), ("height", height), ("exif", exifObject),
            ("sticker", sticker), ("palette", palette),
            ("guidance", guidance.map { JSONFields([("box", $0.box), ("include", $0.include), ("exclude", $0.exclude)]) }),
            ("clip", clip), ("livePhoto", livePhoto),
        ]
    }

    private var exifObject: JSONFields {
        JSONFields([
            ("make", exif?.make), ("model", exif?.model), ("lensModel", exif?.lensModel), ("takenAt", exif?.takenAt),
            ("exposureTime", exif?.exposureTime), ("fNumber", exif?.fNumber), ("iso", exif?.iso),
            ("focalLength", exif?.focalLength), ("orientation", exif?.orientation), ("gpsLatitude", exif?.gpsLatitude),
            ("gpsLongitude", exif?.gpsLongitude), ("gpsAltitude", exif?.gpsAltitude),
        ])
    }
}
