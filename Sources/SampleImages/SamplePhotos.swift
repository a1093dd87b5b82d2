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

    /// Encodes a scene as a JPEG whose pixels are in `space`, tagged with its ICC profile in APP2
    /// `ICC_PROFILE` segments (as cameras set to Adobe RGB write them), with `exif` as `jpeg` does.
    public static func jpeg(_ scene: SampleScene, exif: ExifMetadata?, space: ColorConverter.RGBSpace, quality: Int = 88) throws(ProcessingError) -> [UInt8] {
        var image = try pixels(scene.renderPhoto(), in: space)
        if let orientation = exif?.orientation {
            image = Orientation.apply([6: 8, 8: 6][orientation] ?? orientation, to: image)
        }
        return try jpeg(image, taggedAs: space, exif: exif, quality: quality)
    }

    /// Encodes pixels that are already in `space` as a JPEG tagged with its ICC profile in APP2
    /// `ICC_PROFILE` segments, with `exif` (if any).
    public static func jpeg(
        _ image: RGBAImage, taggedAs space: ColorConverter.RGBSpace, exif: ExifMetadata? = nil, quality: Int = 88
    ) throws(ProcessingError) -> [UInt8] {
        var jpeg = try JPEGCodec.encode(image, quality: quality)
        if let exif { jpeg = try ExifWriter.jpegByInserting(exif, into: jpeg) }
        guard let profile = space.iccProfile, profile.count <= 65_000 else { throw .encodingFailed("no ICC profile for \(space)") }
        let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }

    /// Encodes a scene as a PNG whose pixels are in `space`, tagged with an `iCCP` chunk.
    public static func png(_ scene: SampleScene, space: ColorConverter.RGBSpace) throws(ProcessingError) -> [UInt8] {
        guard let profile = space.iccProfile else { throw .encodingFailed("no ICC profile for \(space)") }
        return try PNGCodec.pngByInserting(iccProfile: profile, into: PNGCodec.encode(try pixels(scene.renderPhoto(), in: space)))
    }

    /// Encodes a scene as HEIC (or AVIF) through libheif, as a phone would: the pixels stored
    /// turned back, the orientation in `irot`/`imir` boxes, the EXIF (orientation tag included, which
    /// readers must not apply on top) in an Exif item, and the pixels in `space` with its ICC profile.
    public static func heif(
        _ scene: SampleScene, exif: ExifMetadata?, space: ColorConverter.RGBSpace? = nil, codec: HEIFCodec.EncodeOptions.Codec = .hevc,
        quality: Int = 88
    ) throws(ProcessingError) -> [UInt8] {
        let orientation = exif?.orientation ?? 1
        var image = try pixels(scene.renderPhoto(), in: space)
        image = Orientation.apply([6: 8, 8: 6][orientation] ?? orientation, to: image)
        let options = HEIFCodec.EncodeOptions(
            codec: codec, quality: quality, iccProfile: space?.iccProfile, exif: try exif.map { exif throws(ProcessingError) in try ExifWriter.exifBlock(exif) },
            orientation: orientation)
        return try HEIFCodec.encode(image, options: options)
    }

    /// Encodes a scene as a lossy WebP with its EXIF in an `EXIF` chunk (pixels turned back for its
    /// orientation, as for a JPEG) and, with `space`, its pixels in that space with an `ICCP` chunk.
    public static func webp(
        _ scene: SampleScene, exif: ExifMetadata?, space: ColorConverter.RGBSpace? = nil, quality: Int = 88
    ) throws(ProcessingError) -> [UInt8] {
        var image = try pixels(scene.renderPhoto(), in: space)
        if let orientation = exif?.orientation {
            image = Orientation.apply([6: 8, 8: 6][orientation] ?? orientation, to: image)
        }
        let plain = try WebPCodec.encode(image, mode: .lossy(quality: quality))
        let exifBlock = try exif.map { exif throws(ProcessingError) in Array(try ExifWriter.exifBlock(exif).dropFirst(6)) }
        guard exifBlock != nil || space != nil else { return plain }
        guard let tagged = WebPChunks.adding(iccProfile: space?.iccProfile, exif: exifBlock, to: plain) else {
            throw .encodingFailed("could not add metadata to the WebP file")
        }
        return tagged
    }

    /// sRGB pixels re-expressed in `space` (unchanged for nil).
    private static func pixels(_ image: RGBAImage, in space: ColorConverter.RGBSpace?) throws(ProcessingError) -> RGBAImage {
        guard let space else { return image }
        guard let converted = ColorConverter.fromSRGB(image, to: space) else { throw .encodingFailed("lcms2 could not convert to \(space)") }
        return converted
    }

    /// Encodes the scene's subject over a transparent background as a PNG.
    public static func transparentPNG(_ scene: SampleScene) throws(ProcessingError) -> [UInt8] {
        try PNGCodec.encode(scene.renderCutout())
    }

    /// The demo's built-in photos: JPEGs from several invented cameras (with GPS, lenses,
    /// offsets and rotated orientations), a phone's HEIC in Display P3 (turned by `irot`), a WebP
    /// with EXIF, PNGs that already have transparency, and last an animated WebP (``animatedDemo(width:height:)``)
    /// at most 640 x 480.
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
                let (suffix, bytes): (String, [UInt8]) = switch spec.container {
                case .jpeg: ("jpg", try jpeg(scene, exif: spec.exif))
                case .heic: ("heic", try heif(scene, exif: spec.exif, space: spec.space))
                case .webp: ("webp", try webp(scene, exif: spec.exif, space: spec.space))
                }
                photos.append(SamplePhoto(name: spec.name + "." + suffix, bytes: bytes, scene: scene, exif: spec.exif))
            }
        }
        photos.append(try animatedDemo(width: min(640, width), height: min(480, height)))
        // Two more, so the demo pack's animated set meets WhatsApp's minimum of three.
        photos.append(try animatedDemo(.rollingBall, width: min(640, width), height: min(480, height)))
        photos.append(try animatedDemo(.driftingBlob, width: min(640, width), height: min(480, height)))
        return photos
    }

    /// The demo set without its animated samples: still photos only, for tests that import the set
    /// many times (each animation's frames all go through the network).
    public static func demoStills(width: Int = 1600, height: Int = 1200) throws(ProcessingError) -> [SamplePhoto] {
        let animated = Set(AnimatedSample.allCases.map(\.fileName))
        return try demo(width: width, height: height).filter { !animated.contains($0.name) }
    }

    /// The demo's animated samples.
    public enum AnimatedSample: Sendable, CaseIterable {
        /// `magenta-star-bouncing.webp`: a magenta star with a yellow band hopping left to right.
        case bouncingStar
        /// `lime-ball-rolling.png` (an APNG): a lime ball rolling right to left over a navy wall.
        case rollingBall
        /// `green-blob-drifting.webp`: a green blob drifting up over a warm gradient.
        case driftingBlob

        /// Frames, at ``animatedFrameRate``: the two extra samples are shorter, so the demo stays quick.
        public var frameCount: Int { self == .bouncingStar ? animatedFrameCount : 10 }

        var fileName: String {
            switch self {
            case .bouncingStar: "magenta-star-bouncing.webp"
            case .rollingBall: "lime-ball-rolling.png"
            case .driftingBlob: "green-blob-drifting.webp"
            }
        }
    }

    /// Frames of the animated sample and their rate: 1.5 s, short so that `make demo` stays quick
    /// (each frame goes through the network).
    public static let animatedFrameCount = 22
    public static let animatedFrameRate = 15

    /// One of the demo's animated samples (``AnimatedSample``), at ``animatedFrameRate``: the rolling
    /// ball as an APNG, the others as animated WebPs that loop (lossy at quality 88, as the still WebP
    /// sample). Its `scene` is the first frame's.
    public static func animatedDemo(_ sample: AnimatedSample = .bouncingStar, width: Int = 640, height: Int = 480) throws(ProcessingError) -> SamplePhoto {
        let scenes = animatedDemoScenes(sample, width: width, height: height)
        // Each frame ends on the 15 fps clock, so the durations (66 or 67 ms) add up with no drift.
        let ends = (1...scenes.count).map { ($0 * 1000 + animatedFrameRate / 2) / animatedFrameRate }
        let durations = ends.indices.map { ends[$0] - ($0 == 0 ? 0 : ends[$0 - 1]) }
        let frames = scenes.map { $0.renderPhoto() }
        let bytes = sample == .rollingBall
            ? try APNGEncoder.encode(frames, durations: durations)
            : try WebPCodec.encodeAnimation(frames, durations: durations, mode: .lossy(quality: 88))
        return SamplePhoto(name: sample.fileName, bytes: bytes, scene: scenes[0], exif: nil)
    }

    /// An animated sample's frames as scenes (each with its exact mask), the subject whole inside the
    /// frame: the star moves steadily right and bounces twice, the ball rolls left, the blob drifts up.
    public static func animatedDemoScenes(_ sample: AnimatedSample = .bouncingStar, width: Int = 640, height: Int = 480) -> [SampleScene] {
        (0..<sample.frameCount).map { index in
            let time = Double(index) / Double(sample.frameCount - 1)
            switch sample {
            case .bouncingStar: break
            case .rollingBall:
                return SampleScene(
                    width: width, height: height, background: .gradient(top: RGB(50, 70, 130), bottom: RGB(25, 35, 80)),
                    shape: .ellipse, subjectColor: RGB(170, 210, 40), accentColor: RGB(250, 250, 235),
                    centerX: 0.7 - 0.4 * time, centerY: 0.55, radius: 0.22, seed: 12)
            case .driftingBlob:
                return SampleScene(
                    width: width, height: height, background: .gradient(top: RGB(250, 210, 160), bottom: RGB(200, 120, 90)),
                    shape: .blob, subjectColor: RGB(60, 170, 80), accentColor: nil,
                    centerX: 0.5, centerY: 0.6 - 0.2 * time, radius: 0.24, seed: 13)
            }
            // Two parabolic hops: the height is 0 on the ground and 1 at the top of each.
            let hop = (2 * time).truncatingRemainder(dividingBy: 1)
            return SampleScene(
                width: width, height: height, background: .gradient(top: RGB(150, 200, 240), bottom: RGB(70, 120, 80)),
                shape: .star, subjectColor: RGB(200, 40, 160), accentColor: RGB(250, 220, 60),
                centerX: 0.3 + 0.4 * time, centerY: 0.62 - 0.2 * 4 * hop * (1 - hop), radius: 0.24, seed: 11)
        }
    }

    /// How a benchmark photo is stored: the formats benchmark compares the same scene as a JPEG and
    /// a HEIC, tagged Display P3, and the tagged JPEG with and without its profile.
    public enum BenchmarkVariant: String, Sendable, CaseIterable {
        /// sRGB JPEG (the import benchmark's photos).
        case jpeg
        /// Display P3 pixels in a JPEG tagged with the profile.
        case p3JPEG = "p3-jpeg"
        /// The same bytes as `p3JPEG` without the profile (what colour management costs is the difference).
        case p3JPEGUntagged = "p3-jpeg-untagged"
        /// The same Display P3 pixels as a HEIC tagged with the profile.
        case p3HEIC = "p3-heic"
        /// An sRGB HEIC with the same EXIF (phones' default format).
        case heic
        /// An opaque PNG without EXIF, as screenshots and exported artwork come: PNGs cannot be
        /// decoded scaled, so they load the pipeline differently.
        case png

        public var fileExtension: String {
            switch self {
            case .p3HEIC, .heic: "heic"
            case .png: "png"
            default: "jpg"
            }
        }
    }

    /// One benchmark photo as `variant` (see ``benchmarkJPEG(index:megapixels:)`` for the scene).
    public static func benchmarkPhoto(index: Int, megapixels: Double = 12, variant: BenchmarkVariant) throws(ProcessingError) -> [UInt8] {
        switch variant {
        case .jpeg: return try benchmarkJPEG(index: index, megapixels: megapixels)
        case .heic:
            let (scene, exif) = benchmarkScene(index: index, megapixels: megapixels)
            return try heif(scene, exif: exif, quality: 80)
        case .png: return try PNGCodec.encode(benchmarkScene(index: index, megapixels: megapixels).0.renderPhoto())
        case .p3JPEG, .p3JPEGUntagged, .p3HEIC:
            let (scene, exif) = benchmarkScene(index: index, megapixels: megapixels)
            switch variant {
            case .p3HEIC: return try heif(scene, exif: exif, space: .displayP3, quality: 80)
            case .p3JPEGUntagged:
                let image = try pixels(scene.renderPhoto(), in: .displayP3)
                return try ExifWriter.jpegByInserting(exif, into: JPEGCodec.encode(image, quality: 92))
            default: return try jpeg(scene, exif: exif, space: .displayP3, quality: 92)
            }
        }
    }

    /// One benchmark photo: a grainy scene of about `megapixels` MP (4:3) with camera EXIF, varied by `index`.
    public static func benchmarkJPEG(index: Int, megapixels: Double = 12) throws(ProcessingError) -> [UInt8] {
        let (scene, exif) = benchmarkScene(index: index, megapixels: megapixels)
        return try jpeg(scene, exif: exif, quality: 92)
    }

    private static func benchmarkScene(index: Int, megapixels: Double) -> (SampleScene, ExifMetadata) {
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
        var container = Container.jpeg
        /// The colour space the pixels are stored in (and tagged with); nil: untagged sRGB.
        var space: ColorConverter.RGBSpace?
    }

    private enum Container { case jpeg, heic, webp }

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
        Spec(
            name: "blue-ball-phone-p3", background: .gradient(top: RGB(250, 245, 235), bottom: RGB(210, 200, 190)),
            shape: .ellipse, color: RGB(30, 90, 220), accent: RGB(255, 190, 20), center: (0.5, 0.5), radius: 0.3,
            exif: ExifMetadata(
                make: "Apple", model: "iPhone 15", lensModel: "iPhone 15 back camera 6.86mm f/1.6", takenAt: "2026-05-09T17:42:10-07:00",
                exposureTime: 1.0 / 120, fNumber: 1.6, iso: 64, focalLength: 6.86, orientation: 6,
                gpsLatitude: 37.8199, gpsLongitude: -122.4783, gpsAltitude: 67
            ),
            container: .heic, space: .displayP3
        ),
        Spec(
            name: "coral-star-web", background: .noise(RGB(40, 60, 50), amplitude: 12),
            shape: .star, color: RGB(255, 110, 90), accent: RGB(255, 220, 120), center: (0.5, 0.5), radius: 0.36,
            exif: ExifMetadata(
                make: "Google", model: "Pixel 8", takenAt: "2026-02-14T09:05:00+01:00",
                exposureTime: 1.0 / 250, fNumber: 1.7, iso: 50, focalLength: 6.9, orientation: 1
            ),
            container: .webp
        ),
    ]
}
