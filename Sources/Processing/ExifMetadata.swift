/// The EXIF fields a catalog searches and shows, plus every tag as text.
/// Units: seconds, millimetres, metres; GPS as signed decimal degrees (south and west negative).
public struct ExifMetadata: Sendable, Equatable, Codable {
    public var make: String?
    public var model: String?
    public var lensModel: String?
    /// ISO 8601 local time as written by the camera, with its offset when the file records one:
    /// `2024-05-01T12:34:56+02:00`, or `2024-05-01T12:34:56` without.
    public var takenAt: String?
    public var exposureTime: Double?
    public var fNumber: Double?
    public var iso: Int?
    public var focalLength: Double?
    /// EXIF orientation 1...8; nil when absent or out of range.
    public var orientation: Int?
    public var gpsLatitude: Double?
    public var gpsLongitude: Double?
    public var gpsAltitude: Double?
    /// Every tag libexif reads, keyed `IFD.TagName` (e.g. `0.Make`, `EXIF.ISOSpeedRatings`, `GPS.GPSLatitude`), as display text.
    public var tags: [String: String]

    public init(
        make: String? = nil, model: String? = nil, lensModel: String? = nil, takenAt: String? = nil,
        exposureTime: Double? = nil, fNumber: Double? = nil, iso: Int? = nil, focalLength: Double? = nil,
        orientation: Int? = nil, gpsLatitude: Double? = nil, gpsLongitude: Double? = nil, gpsAltitude: Double? = nil,
        tags: [String: String] = [:]
    ) {
        self.make = make
        self.model = model
        self.lensModel = lensModel
        self.takenAt = takenAt
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.iso = iso
        self.focalLength = focalLength
        self.orientation = orientation
        self.gpsLatitude = gpsLatitude
        self.gpsLongitude = gpsLongitude
        self.gpsAltitude = gpsAltitude
        self.tags = tags
    }
}
