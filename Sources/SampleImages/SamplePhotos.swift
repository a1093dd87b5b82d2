import Processing

/// A generated photo file: its name and bytes, plus the scene and EXIF it was made from.
public struct SamplePhoto: Sendable {
    public let name: String
    public let bytes: [UInt8]
    public let scene: SampleScene
    public let exif: ExifMetadata?
}

/// Sets of generated photos: the demo's built-in samples and the benchmark's large JPEGs.
public enum SamplePhotos {
    /// Encodes a scene as a JPEG carrying `exif` (if any). The pixels are stored as the camera
    /// would: rotated so that applying `exif.orientation` shows the scene upright.
    public static func jpeg(_ scene: SampleScene, exif: ExifMetadata?, quality: Int = 88) throws(ProcessingError) -> [UInt8] {
        var image = scene.renderPhoto()
        if let orientation = exif?.orientation {
            // The inverse transform: 6 (rotate 90 CW to display) is undone by 8, and vice versa.
            let inverse = [6: 8, 8: 6][orientation] ?? orientation
            image = Orientation.apply(inverse, to: image)
        }
        let jpeg = try JPEGCodec.encode(image, quality: quality)
        guard let exif else { return jpeg }
        return try ExifWriter.jpegByInserting(exif, into: jpeg)
    }

    /// Encodes the scene's subject over a transparent background as a PNG.
    public static func transparentPNG(_ scene: SampleScene) throws(ProcessingError) -> [UInt8] {
        try PNGCodec.encode(scene.renderCutout())
    }

    /// The demo's built-in photos: JPEGs from several invented cameras (with GPS, lenses,
    /// offsets and rotated orientations) and PNGs that already have transparency.
    public static func demo(width: Int = 1600, height: Int = 1200) throws(ProcessingError) -> [SamplePhoto] {
        var photos: [SamplePhoto] = []
        for (index, spec) in demoSpecs.enumerated() {
            var scene = SampleScene(
                width: width, height: height, background: spec.background, shape: spec.shape,
                subjectColor: spec.color, accentColor: spec.accent,
                centerX: spec.center.x, centerY: spec.center.y, radius: spec.radius, seed: UInt64(index + 1)
            )
            if spec.transparent {
                scene.width = height
                scene.centerX = 0.5
                scene.centerY = 0.5
                photos.append(SamplePhoto(name: spec.name + ".png", bytes: try transparentPNG(scene), scene: scene, exif: nil))
            } else {
                photos.append(SamplePhoto(name: spec.name + ".jpg", bytes: try jpeg(scene, exif: spec.exif), scene: scene, exif: spec.exif))
            }
        }
        return photos
    }

    /// One benchmark photo: a grainy scene of about `megapixels` MP (4:3) with camera EXIF, varied by `index`.
    public static func benchmarkJPEG(index: Int, megapixels: Double = 12) throws(ProcessingError) -> [UInt8] {
        let (scene, exif) = benchmarkScene(index: index, megapixels: megapixels)
        return try jpeg(scene, exif: exif, quality: 92)
    }

    /// The same scene as `benchmarkJPEG`, as an opaque PNG without EXIF (as screenshots and exported
    /// artwork come): PNGs cannot be decoded scaled, so they load the pipeline differently.
    public static func benchmarkPNG(index: Int, megapixels: Double = 8) throws(ProcessingError) -> [UInt8] {
        try PNGCodec.encode(benchmarkScene(index: index, megapixels: megapixels).scene.renderPhoto())
    }

    private static func benchmarkScene(index: Int, megapixels: Double) -> (scene: SampleScene, exif: ExifMetadata) {
        let height = Int((megapixels * 1_000_000 * 3 / 4).squareRoot().rounded())
        let width = height * 4 / 3
        let spec = demoSpecs[index % demoSpecs.count]
        let shapes = SampleScene.Shape.allCases
        let scene = SampleScene(
            width: width, height: height,
            background: .noise(RGB(UInt8(60 + index % 120), 110, UInt8(200 - index % 90)), amplitude: 18),
            shape: shapes[index % shapes.count], subjectColor: spec.color, accentColor: spec.accent,
            centerX: 0.35 + Double(index % 7) * 0.05, centerY: 0.4 + Double(index % 5) * 0.05,
            radius: 0.2 + Double(index % 4) * 0.04, seed: UInt64(index + 1)
        )
        let exif = ExifMetadata(
            make: "Sticker Labs", model: "Bench 12", takenAt: "2026-06-0\(1 + index % 9)T10:\(10 + index % 50):00+02:00",
            exposureTime: 1.0 / 250, fNumber: 4, iso: 200, focalLength: 35, orientation: 1
        )
        return (scene, exif)
    }

    private struct Spec {
        var name: String
        var background: SampleScene.Background
        var shape: SampleScene.Shape
        var color: RGB
        var accent: RGB?
        var center: (x: Double, y: Double) = (0.5, 0.5)
        var radius = 0.3
        var transparent = false
        var exif: ExifMetadata?
    }

    private static let demoSpecs: [Spec] = [
        Spec(
            name: "orange-ball-tokyo", background: .gradient(top: RGB(135, 190, 235), bottom: RGB(40, 90, 60)),
            shape: .ellipse, color: RGB(255, 136, 0), center: (0.45, 0.55),
            exif: ExifMetadata(
                make: "Sticker Labs", model: "Pocket One", lensModel: "28mm f/2.8", takenAt: "2026-04-05T14:03:22+09:00",
                exposureTime: 1.0 / 500, fNumber: 2.8, iso: 100, focalLength: 28, orientation: 1,
                gpsLatitude: 35.6586, gpsLongitude: 139.7454, gpsAltitude: 40
            )
        ),
        Spec(
            name: "teal-star-reykjavik", background: .noise(RGB(230, 228, 220), amplitude: 10),
            shape: .star, color: RGB(0, 128, 128), accent: RGB(250, 250, 210), center: (0.55, 0.5), radius: 0.34,
            exif: ExifMetadata(
                make: "Northwind", model: "NW-7", lensModel: "NW 35mm F1.8", takenAt: "2026-01-17T11:45:00+00:00",
                exposureTime: 1.0 / 125, fNumber: 1.8, iso: 800, focalLength: 35, orientation: 6,
                gpsLatitude: 64.1466, gpsLongitude: -21.9426, gpsAltitude: 12
            )
        ),
        Spec(
            name: "red-blob-sydney", background: .checker(RGB(240, 240, 240), RGB(200, 200, 210), cell: 80),
            shape: .blob, color: RGB(210, 30, 45), accent: RGB(40, 40, 40), center: (0.5, 0.45), radius: 0.32,
            exif: ExifMetadata(
                make: "Koala Optics", model: "K2 Mark II", takenAt: "2025-12-24T19:30:05+11:00",
                exposureTime: 1.0 / 60, fNumber: 4, iso: 1600, focalLength: 50, orientation: 3,
                gpsLatitude: -33.8568, gpsLongitude: 151.2153, gpsAltitude: 5
            )
        ),
        Spec(
            name: "purple-square-deadsea", background: .gradient(top: RGB(250, 220, 170), bottom: RGB(170, 120, 90)),
            shape: .roundedSquare, color: RGB(120, 60, 170), center: (0.5, 0.5), radius: 0.28,
            exif: ExifMetadata(
                make: "Sticker Labs", model: "Pocket One", takenAt: "2026-03-02T08:15:00",
                exposureTime: 1.0 / 1000, fNumber: 8, iso: 100, focalLength: 24, orientation: 8,
                gpsLatitude: 31.5590, gpsLongitude: 35.4732, gpsAltitude: -430
            )
        ),
        Spec(
            name: "yellow-ball-noexif", background: .noise(RGB(70, 90, 120), amplitude: 14),
            shape: .ellipse, color: RGB(250, 210, 40), accent: RGB(230, 120, 20), center: (0.6, 0.5), radius: 0.26
        ),
        Spec(
            name: "green-star-sticker", background: .gradient(top: RGB(0, 0, 0), bottom: RGB(0, 0, 0)),
            shape: .star, color: RGB(60, 180, 75), radius: 0.42, transparent: true
        ),
        Spec(
            name: "pink-blob-sticker", background: .gradient(top: RGB(0, 0, 0), bottom: RGB(0, 0, 0)),
            shape: .blob, color: RGB(240, 110, 170), accent: RGB(255, 255, 255), radius: 0.42, transparent: true
        ),
    ]
}
