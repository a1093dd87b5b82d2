import Foundation
import GRDB
import Processing

/// A row of `exif`: the searchable EXIF fields of a photo as columns, every tag as sorted-keys JSON.
struct ExifRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "exif"

    var photoId: Int64
    var make, model, lensModel: String?
    /// As the camera wrote it, and in UTC when the file records its offset.
    var takenAt, takenAtUtc: String?
    var exposureTime, fNumber: Double?
    var iso: Int?
    var focalLength: Double?
    var orientation: Int?
    var gpsLatitude, gpsLongitude, gpsAltitude: Double?
    var tagsJson: String

    enum CodingKeys: String, CodingKey {
        case photoId = "photo_id"
        case make, model
        case lensModel = "lens_model"
        case takenAt = "taken_at"
        case takenAtUtc = "taken_at_utc"
        case exposureTime = "exposure_time"
        case fNumber = "f_number"
        case iso
        case focalLength = "focal_length"
        case orientation
        case gpsLatitude = "gps_latitude"
        case gpsLongitude = "gps_longitude"
        case gpsAltitude = "gps_altitude"
        case tagsJson = "tags_json"
    }
}

extension ExifRecord {
    /// The row for `exif`. Values the schema would reject (orientation outside 1...8, GPS out of range,
    /// non-finite numbers) come from damaged EXIF: they are stored as NULL rather than failing the
    /// whole entry; the raw text stays in `tags_json`.
    init(photoId: Int64, exif: ExifMetadata) throws {
        self.photoId = photoId
        make = exif.make
        model = exif.model
        lensModel = exif.lensModel
        takenAt = exif.takenAt
        takenAtUtc = exif.takenAt.map(Timestamp.utc(fromTakenAt:))
        exposureTime = Self.finite(exif.exposureTime)
        fNumber = Self.finite(exif.fNumber)
        iso = exif.iso
        focalLength = Self.finite(exif.focalLength)
        orientation = exif.orientation.flatMap { (1...8).contains($0) ? $0 : nil }
        gpsLatitude = Self.finite(exif.gpsLatitude).flatMap { (-90...90).contains($0) ? $0 : nil }
        gpsLongitude = Self.finite(exif.gpsLongitude).flatMap { (-180...180).contains($0) ? $0 : nil }
        gpsAltitude = Self.finite(exif.gpsAltitude)
        tagsJson = try CatalogJSON.string(exif.tags)
    }

    /// The EXIF as the pipeline produced it (with sanitised values), tags decoded from JSON.
    func metadata() throws -> ExifMetadata {
        ExifMetadata(
            make: make, model: model, lensModel: lensModel, takenAt: takenAt,
            exposureTime: exposureTime, fNumber: fNumber, iso: iso, focalLength: focalLength,
            orientation: orientation, gpsLatitude: gpsLatitude, gpsLongitude: gpsLongitude, gpsAltitude: gpsAltitude,
            tags: try CatalogJSON.decode([String: String].self, from: tagsJson)
        )
    }

    private static func finite(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite ? $0 : nil }
    }
}
