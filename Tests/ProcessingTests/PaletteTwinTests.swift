import Foundation
import Testing

@testable import Processing
import SampleImages

/// A photo and its lossy twins (JPEG, WebP, AVIF of the same pixels, the same subject mask) get the
/// same palette: within ΔE76 5, share-weighted. Before the palette started from principal-axis splits,
/// a k-means++ draw landed on another pixel of a twin and a smooth colour could come out as one colour
/// or two (the skimage colour chart's twins were 24.6 apart; a motorcycle's 7.9).
@Suite struct PaletteTwinTests {
    /// Smooth colour with a little grain: where a clustering's start decides how one hue is cut.
    static func chart(width: Int = 360, height: Int = 300) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var random = SplitMix64(seed: 42)
        for y in 0..<height {
            for x in 0..<width {
                let hue = Double(x) / Double(width) * 6, light = 0.25 + 0.6 * Double(y) / Double(height)
                let rgb = (0..<3).map { channel -> Double in
                    let h = (hue + Double(channel) * 2).truncatingRemainder(dividingBy: 6)
                    let k = max(0, min(1, abs(h - 3) - 1))
                    return light * (0.35 + 0.65 * k)
                }
                for channel in 0..<3 {
                    let grain = Double(random.next() % 7) - 3
                    pixels[(y * width + x) * 4 + channel] = UInt8(max(0, min(255, (rgb[channel] * 255 + grain).rounded())))
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// How far each twin's palette is from that of `photo` (opaque, under the centred soft ellipse), by format.
    static func twinDistances(_ photo: RGBAImage) throws -> [(String, Double)] {
        let subject = LossyTwins.subject(of: opaque(photo))
        let reference = PaletteExtractor.palette(of: LossyTwins.withAlpha(photo, subject), colors: 5)
        return try LossyTwins.of(photo).map { format, twin in
            (format, PaletteDistance.shareWeightedDeltaE76(reference, PaletteExtractor.palette(of: LossyTwins.withAlpha(twin, subject), colors: 5)))
        }
    }

    @Test func aColourChartsTwinsHaveItsPalette() throws {
        for (format, distance) in try Self.twinDistances(Self.chart()) {
            #expect(distance <= 5, "\(format): ΔE76 \(distance)")
        }
    }

    @Test func theSamplePhotosTwinsHaveTheirPalettes() throws {
        for sample in try SamplePhotos.demoStills(width: 800, height: 600) {
            guard let decoded = try? PhotoDecoder.decode(sample.bytes, options: DecodeOptions()) else { continue }
            for (format, distance) in try Self.twinDistances(decoded.image) {
                #expect(distance <= 5, "\(sample.name) as \(format): ΔE76 \(distance)")
            }
        }
    }

    /// Real photos (the corpus's, when $STICKER_CORPUS is set): smooth skies, metal and skin.
    @Test(.enabled(if: Self.corpusPhotos != nil, "set STICKER_CORPUS to a folder made by ../shared/corpus/fetch.sh"))
    func realPhotosTwinsHaveTheirPalettes() throws {
        let folder = try #require(Self.corpusPhotos)
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
            let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))) ?? Data())
            guard let decoded = try? PhotoDecoder.decode(bytes, options: DecodeOptions()), decoded.image.width >= 32, decoded.image.height >= 32 else { continue }
            checked += 1
            for (format, distance) in try Self.twinDistances(decoded.image) {
                #expect(distance <= 5, "\(name) as \(format): ΔE76 \(distance)")
            }
        }
        #expect(checked >= 10, "only \(checked) photos in \(folder)")
    }

    static var corpusPhotos: String? {
        guard let root = ProcessInfo.processInfo.environment["STICKER_CORPUS"], !root.isEmpty else { return nil }
        let photos = root + "/photos"
        return FileManager.default.fileExists(atPath: photos) ? photos : nil
    }

    static func opaque(_ image: RGBAImage) -> RGBAImage {
        var pixels = image.pixels
        for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = 255 }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }
}
