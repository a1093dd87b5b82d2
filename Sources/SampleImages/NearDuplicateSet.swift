import Foundation
import Processing

/// The near-duplicate test set: subjects (objects with their own transparency) pasted over
/// photos, and for each such original the copies a photo library holds of it: resized,
/// recompressed, cropped, turned by EXIF, converted to HEIC and WebP, given a colour profile, and
/// the same subject over another background. Each copy belongs to its original's group; photos of
/// other subjects, over the same backgrounds, do not.
public struct NearDuplicateSet: Sendable {
    /// One file of the set: its bytes and the group (the subject) it belongs to.
    public struct Photo: Sendable {
        public var group: Int
        /// What was done to the original ("original", "JPEG 30", "crop 10 %", ...).
        public var change: String
        public var bytes: [UInt8]
    }

    public var photos: [Photo]

    /// The copies made of each original: a name, and the bytes from the upright composite.
    public static let changes: [(String, @Sendable (RGBAImage) throws -> [UInt8]?)] = [
        ("original", { try JPEGCodec.encode($0, quality: 92) }),
        ("half size", { try JPEGCodec.encode(ImageResizer.resized($0, width: $0.width / 2, height: $0.height / 2), quality: 90) }),
        ("JPEG 30", { try JPEGCodec.encode($0, quality: 30) }),
        ("JPEG 60", { try JPEGCodec.encode($0, quality: 60) }),
        ("crop 10 %", { try JPEGCodec.encode($0.cropped(x: $0.width / 10, y: 0, width: $0.width - $0.width / 10, height: $0.height), quality: 90) }),
        ("crop 5 % each side", { image in
            let dx = image.width / 20, dy = image.height / 20
            return try JPEGCodec.encode(image.cropped(x: dx, y: dy, width: image.width - 2 * dx, height: image.height - 2 * dy), quality: 90)
        }),
        ("EXIF rotation", { image in
            let exif = ExifMetadata(
                make: nil, model: nil, lensModel: nil, takenAt: nil, exposureTime: nil, fNumber: nil, iso: nil, focalLength: nil,
                orientation: 6, gpsLatitude: nil, gpsLongitude: nil, gpsAltitude: nil, tags: [:])
            return try ExifWriter.jpegByInserting(exif, into: JPEGCodec.encode(Orientation.apply(8, to: image), quality: 90))
        }),
        ("HEIC", { image in
            (try? HEIFCodec.encode(image, options: .init(codec: .hevc, quality: 60))) ?? nil
        }),
        ("WebP", { try WebPCodec.encode($0, mode: .lossy(quality: 70)) }),
        ("Display P3", { image in
            guard let converted = ColorConverter.fromSRGB(image, to: .displayP3) else { return nil }
            return try SamplePhotos.jpeg(converted, taggedAs: .displayP3, quality: 90)
        }),
    ]

    /// `subjects` (RGBA images with transparency) over `backgrounds` (any photos): subject i over
    /// background i, with every change above, and subject i over background i + 1 elsewhere in
    /// the frame ("other background"). Photos are `width` x `height`; changes the codecs here cannot
    /// make (HEIC without an HEVC encoder) are left out.
    public static func make(subjects: [RGBAImage], backgrounds: [RGBAImage], width: Int = 800, height: Int = 600) throws -> NearDuplicateSet {
        precondition(!backgrounds.isEmpty)
        var photos: [Photo] = []
        for (group, subject) in subjects.enumerated() {
            let scene = fitted(backgrounds[group % backgrounds.count], width: width, height: height)
            let original = pasted(subject, over: scene, at: (0.5 + 0.1 * Double(group % 3 - 1), 0.55))
            for (change, make) in changes {
                if let bytes = try make(original) { photos.append(Photo(group: group, change: change, bytes: bytes)) }
            }
            let other = fitted(backgrounds[(group + 1) % backgrounds.count], width: width, height: height)
            let moved = pasted(subject, over: other, at: (0.4 + 0.1 * Double(group % 2), 0.5))
            photos.append(Photo(group: group, change: "other background", bytes: try JPEGCodec.encode(moved, quality: 90)))
        }
        return NearDuplicateSet(photos: photos)
    }

    /// `image` scaled to cover `width` x `height` and cropped to it, centred.
    static func fitted(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        let scale = max(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let scaledWidth = max(width, Int((Double(image.width) * scale).rounded(.up)))
        let scaledHeight = max(height, Int((Double(image.height) * scale).rounded(.up)))
        let scaled = ImageResizer.resized(image, width: scaledWidth, height: scaledHeight)
        return scaled.cropped(x: (scaledWidth - width) / 2, y: (scaledHeight - height) / 2, width: width, height: height)
    }

    /// `subject` scaled to half the photo's height, its centre at `center` (fractions of the photo),
    /// blended over `photo` by its alpha.
    static func pasted(_ subject: RGBAImage, over photo: RGBAImage, at center: (Double, Double)) -> RGBAImage {
        let scale = Double(photo.height) * 0.5 / Double(max(subject.width, subject.height))
        let width = max(1, Int(Double(subject.width) * scale)), height = max(1, Int(Double(subject.height) * scale))
        let scaled = ImageResizer.resized(subject, width: width, height: height)
        let left = Int(center.0 * Double(photo.width)) - width / 2, top = Int(center.1 * Double(photo.height)) - height / 2
        var pixels = photo.pixels
        for y in 0..<height where top + y >= 0 && top + y < photo.height {
            for x in 0..<width where left + x >= 0 && left + x < photo.width {
                let from = (y * width + x) * 4, to = ((top + y) * photo.width + left + x) * 4
                let alpha = Int(scaled.pixels[from + 3])
                for channel in 0..<3 {
                    pixels[to + channel] = UInt8((Int(scaled.pixels[from + channel]) * alpha + Int(pixels[to + channel]) * (255 - alpha) + 127) / 255)
                }
                pixels[to + 3] = 255
            }
        }
        return RGBAImage(width: photo.width, height: photo.height, pixels: pixels)
    }
}
