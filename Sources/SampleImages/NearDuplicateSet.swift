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

    /// The set the tests and the benchmark score: 20 of the corpus's Tux Paint stamps over 12 of
    /// scikit-image's photos (`corpus`, made by the corpus fetch script), or without it 12 generated
    /// subjects over 6 generated textures.
    public static func standard(corpus: URL?) throws -> NearDuplicateSet {
        guard let corpus else { return try generated() }
        let stampFolder = corpus.appendingPathComponent("stamps")
        let stamps = try FileManager.default.contentsOfDirectory(atPath: stampFolder.path).filter { $0.hasSuffix(".png") }.sorted()
        let chosen = stride(from: 0, to: stamps.count, by: max(1, stamps.count / 24)).map { stamps[$0] }
        let subjects = images(in: stampFolder, names: chosen).filter { $0.width >= 64 && $0.height >= 64 }
        let backgrounds = images(in: corpus.appendingPathComponent("photos"), names: [
            "astronaut.png", "chelsea.png", "coffee.png", "rocket.jpg", "motorcycle_left.png", "hubble_deep_field.jpg",
            "grass.png", "gravel.png", "brick.png", "retina.jpg", "color.png", "ihc.png",
        ])
        return try make(subjects: Array(subjects.prefix(20)), backgrounds: backgrounds)
    }

    /// Generated subjects (the sample scenes' shapes in 12 colours) over generated textures.
    static func generated() throws -> NearDuplicateSet {
        let subjects = (0..<12).map { (index: Int) -> RGBAImage in
            let red = UInt8(60 + index * 37 % 180), green = UInt8(40 + index * 53 % 160), blue = UInt8(90 + index * 29 % 140)
            let shape = SampleScene.Shape.allCases[index % SampleScene.Shape.allCases.count]
            let scene = SampleScene(width: 600, height: 600, background: .gradient(top: RGB(0, 0, 0), bottom: RGB(0, 0, 0)),
                                    shape: shape, subjectColor: RGB(red, green, blue), centerX: 0.5, radius: 0.4, seed: UInt64(index))
            return scene.renderCutout()
        }
        let backgrounds = (0..<6).map { (index: Int) -> RGBAImage in
            let tint = RGB(UInt8(80 + index * 20), 120, UInt8(160 - index * 15))
            let scene = SampleScene(width: 900, height: 640, background: .noise(tint, amplitude: 40),
                                    shape: .ellipse, subjectColor: RGB(0, 0, 0), centerX: 0.5, radius: 0.0, seed: UInt64(index))
            return scene.renderPhoto()
        }
        return try make(subjects: subjects, backgrounds: backgrounds)
    }

    /// The images of `names` in `folder` that decode (upright, at most 1024 pixels a side).
    static func images(in folder: URL, names: [String]) -> [RGBAImage] {
        names.compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { return nil }
            return try? PhotoDecoder.decode(Array(data), options: DecodeOptions(maxPixels: 1 << 26, workingSize: 1024)).image
        }
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

/// How well signatures find the set's near-duplicates at one distance: the copies found near their
/// original (by change), and the pairs of photos of different subjects put together.
public struct NearDuplicateScore: Sendable, CustomStringConvertible {
    /// For each change, in ``NearDuplicateSet/changes`` order then "other background": found, of how many.
    public var byChange: [(change: String, found: Int, copies: Int)] = []
    /// Copies found, of the changes the issue lists (every change but "other background").
    public var found = 0
    public var copies = 0
    /// Distinct pairs within the distance, of all pairs of photos of different subjects.
    public var grouped = 0
    public var pairs = 0
    public var within: Int

    public var recall: Double { Double(found) / Double(max(copies, 1)) }
    public var falsePositiveRate: Double { Double(grouped) / Double(max(pairs, 1)) }

    /// Scores `signatures` (each photo's group, change and signature) at `within`.
    public init(_ signatures: [(group: Int, change: String, signature: SimilaritySignature)], within: Int) {
        self.within = within
        let originals = Dictionary(signatures.filter { $0.change == "original" }.map { ($0.group, $0.signature) }) { first, _ in first }
        for change in NearDuplicateSet.changes.dropFirst().map(\.0) + ["other background"] {
            let distances = signatures.filter { $0.change == change }.compactMap { copy in
                originals[copy.group].map { copy.signature.distance(to: $0) }
            }
            let near = distances.filter { $0 <= within }.count
            byChange.append((change, near, distances.count))
            if change != "other background" {
                found += near
                copies += distances.count
            }
        }
        for first in signatures.indices {
            for second in signatures.indices where second > first && signatures[first].group != signatures[second].group {
                pairs += 1
                if signatures[first].signature.distance(to: signatures[second].signature) <= within { grouped += 1 }
            }
        }
    }

    public var description: String {
        var lines = byChange.map { "  \($0.change): \($0.found) of \($0.copies) found" }
        lines.append(String(format: "  copies found: %d of %d (%.1f %%); distinct pairs grouped: %d of %d (%.2f %%), within %d",
                            found, copies, recall * 100, grouped, pairs, falsePositiveRate * 100, within))
        return lines.joined(separator: "\n")
    }
}
