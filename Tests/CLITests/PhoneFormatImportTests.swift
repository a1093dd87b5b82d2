import Foundation
import Processing
import SampleImages
import Testing

/// `catalog import` of a phone's worth of formats: HEIC, AVIF, WebP, JPEG and PNG, some tagged
/// Adobe RGB or Display P3, all made at test time from one scene. Each must be catalogued with its
/// format, upright size and EXIF, and a palette that matches its untagged sRGB JPEG twin's.
@Suite(.needsModel, .timeLimit(.minutes(15))) struct PhoneFormatImportTests {
    static let scene = SampleScene(
        width: 480, height: 360, background: .gradient(top: RGB(235, 235, 225), bottom: RGB(180, 190, 200)), shape: .ellipse,
        subjectColor: RGB(230, 60, 40), accentColor: RGB(40, 90, 200), centerX: 0.5, centerY: 0.5, radius: 0.3, seed: 11
    )

    static func exif(_ model: String, orientation: Int) -> ExifMetadata {
        ExifMetadata(make: "Phone Co", model: model, takenAt: "2026-07-01T12:00:00+02:00", orientation: orientation)
    }

    /// name → (bytes, EXIF model, decoder format)
    static func photos() throws -> [String: ([UInt8], String, String)] {
        var photos: [String: ([UInt8], String, String)] = [
            "twin.jpg": (try SamplePhotos.jpeg(scene, exif: exif("Twin", orientation: 1)), "Twin", "jpeg"),
            "adobe.jpg": (try SamplePhotos.jpeg(scene, exif: exif("Camera", orientation: 8), space: .adobeRGB), "Camera", "jpeg"),
            "p3.png": (try SamplePhotos.png(scene, space: .displayP3), "", "png"),
            "p3.webp": (try SamplePhotos.webp(scene, exif: exif("Web", orientation: 6), space: .displayP3), "Web", "webp"),
            "plain.webp": (try SamplePhotos.webp(scene, exif: exif("Plain", orientation: 3)), "Plain", "webp"),
        ]
        if let heic = try? SamplePhotos.heif(scene, exif: exif("iPhone", orientation: 6), space: .displayP3) {
            photos["p3.heic"] = (heic, "iPhone", "heif")
        }
        if let avif = try? SamplePhotos.heif(scene, exif: exif("Pixel", orientation: 3), space: .adobeRGB, codec: .av1) {
            photos["adobe.avif"] = (avif, "Pixel", "avif")
        }
        return photos
    }

    static func palette(_ detail: [String: Any]) -> Palette {
        Palette(colors: (detail["palette"] as? [[String: Any]] ?? []).map {
            PaletteColor(hex: $0["hex"] as? String ?? "", l: 0, a: 0, b: 0, share: $0["share"] as? Double ?? 0)
        })
    }

    @Test func everyFormatIsCataloguedWithItsFactsAndTheTwinsPalette() async throws {
        let folder = try TemporaryFolder()
        let photos = try Self.photos()
        #expect(photos["p3.heic"] != nil, "libheif could not make a HEIC here: the HEIC import goes untested")
        for (name, photo) in photos { _ = try folder.write(photo.0, to: "photos/\(name)") }

        let run = try await CLI.run(["--catalog", "c.sqlite", "import", folder.path("photos"), "--json"], in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.jsonLines.last?["imported"] as? Int == photos.count)
        #expect(!run.jsonLines.contains { $0["event"] as? String == "warning" }, "\(run.stdout)")

        var details: [String: [String: Any]] = [:]
        for event in run.jsonLines where event["event"] as? String == "imported" {
            let id = try #require(event["id"] as? Int)
            let path = try #require(event["path"] as? String)
            details[URL(fileURLWithPath: path).lastPathComponent] =
                try #require(try await CLI.run(["--catalog", "c.sqlite", "show", "\(id)", "--json"], in: folder).json as? [String: Any])
        }
        let twin = try #require(details["twin.jpg"])
        for (name, photo) in photos {
            let detail = try #require(details[name], "\(name) was not imported")
            #expect(detail["format"] as? String == photo.2, "\(name)")
            #expect(detail["width"] as? Int == 480 && detail["height"] as? Int == 360, "\(name): upright size")
            let exif = detail["exif"] as? [String: Any]
            if !photo.1.isEmpty {
                #expect(exif?["model"] as? String == photo.1, "\(name)")
            }
            let distance = PaletteDistance.shareWeightedDeltaE76(Self.palette(twin), Self.palette(detail))
            #expect(distance <= 8, "\(name): palette ΔE76 \(distance) from the sRGB twin's")
        }
    }

    @Test func aBrokenProfileIsAWarningNotAFailure() async throws {
        let folder = try TemporaryFolder()
        var jpeg = try SamplePhotos.jpeg(Self.scene, exif: nil, space: .displayP3)
        // Damage the profile's tag data (it starts after the 14-byte APP2 header and the 128-byte ICC header).
        for index in 180..<300 { jpeg[index] = 0xEE }
        _ = try folder.write(jpeg, to: "photos/broken.jpg")
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", folder.path("photos"), "--json"], in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let warning = try #require(run.jsonLines.first { $0["event"] as? String == "warning" })
        #expect((warning["message"] as? String)?.contains("colour profile") == true)
        #expect(run.jsonLines.last?["imported"] as? Int == 1)

        let plain = try await CLI.run(["--catalog", "c2.sqlite", "import", folder.path("photos")], in: folder)
        #expect(plain.status == 0)
        #expect(plain.stderr.contains("warning:") && plain.stderr.contains("broken.jpg"))
    }
}
