import Foundation
import SampleImages
import Testing
@testable import Processing

/// Stickers at the edges: small sources (enlarged at most `StickerRenderer.maxEnlargement` times),
/// the transparent ring around every sticker, and subjects cut by the photo's own edge.
@Suite(.timeLimit(.minutes(15))) struct StickerEdgeTests {
    /// A `width` x `height` cut-out, transparent, with opaque red wherever `inside(x, y)`.
    private static func cutout(width: Int, height: Int, inside: (Int, Int) -> Bool) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width where inside(x, y) {
                    let offset = (y * width + x) * 4
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3]) = (200, 20, 30, 255)
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    private func cutout(width: Int, height: Int, inside: (Int, Int) -> Bool) -> RGBAImage {
        Self.cutout(width: width, height: height, inside: inside)
    }

    @Test("a 32-pixel icon is enlarged twice, not to 512: a smaller sticker with the full-size outline")
    func smallSourceIsEnlargedAtMostTwice() throws {
        let style = StickerStyle.default
        let icon = cutout(width: 32, height: 32) { x, y in (4..<30).contains(x) && (6..<26).contains(y) }  // 26 x 20
        let sticker = try StickerRenderer.render(icon, style: style)
        #expect((sticker.width, sticker.height) == (52 + 2 * style.padding, 40 + 2 * style.padding))
        // The outline is as wide as on a full-size sticker of this style: 8 pixels, then the subject.
        let row = sticker.height / 2
        for x in 0..<style.padding - 8 { #expect(sticker.pixel(x: x, y: row).alpha == 0, "x = \(x)") }
        #expect(sticker.pixel(x: style.padding - 8, y: row) == (255, 255, 255, 128), "the anti-aliased outer edge")
        for x in (style.padding - 7)..<style.padding { #expect(sticker.pixel(x: x, y: row) == (255, 255, 255, 255), "x = \(x)") }
        #expect(sticker.pixel(x: style.padding, y: row) == (200, 20, 30, 255))
    }

    @Test("the limit is in the photo's pixels: a cut-out of a reduced copy may be enlarged further")
    func limitCountsTheSourcePixels() throws {
        let small = cutout(width: 100, height: 100) { x, y in (20..<80).contains(x) && (30..<70).contains(y) }  // 60 x 40
        // Cut out of a copy at a third of the photo's size: 60 pixels stand for 180, enlarged up to 360.
        let reduced = try StickerRenderer.render(small, style: .default, sourceScale: 3)
        #expect((reduced.width, reduced.height) == (360 + 20, 240 + 20))
        // Four times: 480 would be enough for 492, so the sticker is full size.
        let full = try StickerRenderer.render(small, style: .default, sourceScale: 4.1)
        #expect(full.width == 512)
        // Exactly at the limit: 246 pixels enlarged twice fill the 492 the outline leaves.
        let edge = try StickerRenderer.render(cutout(width: 250, height: 250) { x, y in x < 246 && y < 100 }, style: .default)
        #expect(edge.width == 512)
    }

    /// Subjects that touch the cut-out's edges (all four, one, none), tiny and huge.
    static let sources: [(name: String, image: RGBAImage)] = [
        ("1x1 opaque", cutout(width: 1, height: 1) { _, _ in true }),
        ("3x2 opaque", cutout(width: 3, height: 2) { _, _ in true }),
        ("40x30 opaque", cutout(width: 40, height: 30) { _, _ in true }),
        ("40x30 bottom half", cutout(width: 40, height: 30) { _, y in y >= 15 }),
        ("300x200 left strip", cutout(width: 300, height: 200) { x, _ in x < 5 }),
        ("300x200 centre", cutout(width: 300, height: 200) { x, y in (100..<200).contains(x) && (50..<150).contains(y) }),
        ("2400x1600 opaque", cutout(width: 2400, height: 1600) { _, _ in true }),
        ("2400x1600 disc off the top right", cutout(width: 2400, height: 1600) { x, y in (x - 2400) * (x - 2400) + y * y < 900 * 900 }),
    ]

    @Test("the sticker's outermost ring of pixels is transparent, whatever the subject touches",
          arguments: [0, 8, 64], [false, true])
    func outermostRingIsTransparent(outline: Int, shadow: Bool) throws {
        for size in [128, 512] {
            let style = StickerStyle(size: size, outline: outline, shadow: shadow)
            for source in Self.sources {
                let sticker = try StickerRenderer.render(source.image, style: style)
                #expect(max(sticker.width, sticker.height) <= size)
                let (width, height) = (sticker.width, sticker.height)
                let ring = (0..<width).flatMap { [($0, 0), ($0, height - 1)] } + (0..<height).flatMap { [(0, $0), (width - 1, $0)] }
                let opaque = ring.filter { sticker.pixel(x: $0.0, y: $0.1).alpha != 0 }
                #expect(opaque.isEmpty, "\(source.name) at \(size): \(opaque.count) ring pixels not transparent, first \(opaque.first.map { "\($0)" } ?? "")")
                // And the subject is there, with its outline around it.
                #expect(sticker.pixel(x: width / 2, y: height / 2).alpha > 0, "\(source.name) at \(size)")
            }
        }
    }

    /// Columns `xs` of `sticker`, from the bottom: the first row of each that is not transparent, and
    /// the first that is the subject's (not the outline's white).
    private func bottomProfile(_ sticker: RGBAImage, columns xs: Range<Int>) -> (outline: Set<Int>, subject: Set<Int>, gaps: Int) {
        var outline = Set<Int>(), subject = Set<Int>(), gaps = 0
        for x in xs {
            let rows = (0..<sticker.height).reversed()
            guard let edge = rows.first(where: { sticker.pixel(x: x, y: $0).alpha > 0 }),
                  let body = rows.first(where: { let p = sticker.pixel(x: x, y: $0); return p.alpha == 255 && p.green < 200 }) else { continue }
            outline.insert(edge)
            subject.insert(body)
            // No see-through pixel between the subject and the outline's outer anti-aliased row.
            gaps += (body..<edge).filter { sticker.pixel(x: x, y: $0).alpha < 255 }.count
        }
        return (outline, subject, gaps)
    }

    @Test("a subject cut by the photo's bottom edge keeps a straight edge, outlined without a gap",
          arguments: [0, 8, 64])
    func cutEdgeIsStraightAndOutlined(outline: Int) throws {
        // A body running off the bottom: wavy soft sides, a hard cut at the last row.
        let (width, height) = (300, 200)
        var image = cutout(width: width, height: height) { x, y in
            let wave = Int(6 * sin(Double(y) / 7))
            return y >= 40 && x >= 60 + wave && x < 240 - wave
        }
        for y in 40..<height { image.pixels[(y * width + 59 + Int(6 * sin(Double(y) / 7))) * 4 + 3] = 100 }
        let style = StickerStyle(size: 512, outline: outline, shadow: false)
        let sticker = try StickerRenderer.render(image, style: style, sourceScale: 4)
        let inner = style.padding + Int(style.outlinePixels) + 30
        let profile = bottomProfile(sticker, columns: inner..<(sticker.width - inner))
        #expect(profile.subject.count == 1, "the cut edge is one straight row: \(profile.subject.sorted())")
        #expect(profile.outline.count == 1, "the outline follows it: \(profile.outline.sorted())")
        #expect(profile.gaps == 0)
        if let edge = profile.outline.first, let body = profile.subject.first {
            #expect(edge - body == Int(style.outlinePixels.rounded(.up)), "outline \(edge - body) rows under the cut")
            #expect(edge == sticker.height - 1 - (style.padding - Int(style.outlinePixels.rounded(.up))))
        }
    }

    @Test("through the whole pipeline: a photo's subject cut by its bottom edge gives a straight, outlined edge")
    func photoCutAtTheBottom() async throws {
        let scene = SampleScene(
            width: 640, height: 480, background: .noise(RGB(70, 130, 200), amplitude: 14), shape: .roundedSquare,
            subjectColor: RGB(220, 70, 40), centerX: 0.5, centerY: 0.85, radius: 0.45, seed: 3
        )
        let jpeg = try SamplePhotos.jpeg(scene, exif: nil, quality: 92)
        let predictor = SubjectSegmenterTests.CoarseTruth(truth: scene.renderMask(), width: 640, height: 480, factor: 8)
        let processed = try await PhotoProcessor(predictor: predictor).process(jpeg)
        let sticker = try PNGCodec.decode(processed.sticker.png, maxPixels: 1_000_000)
        #expect(sticker.width == 512)
        let padding = StickerStyle.default.padding
        let profile = bottomProfile(sticker, columns: (padding + 60)..<(sticker.width - padding - 60))
        #expect(profile.outline == [sticker.height - 1 - 2], "the outline's outer row, straight: \(profile.outline.sorted())")
        #expect(profile.subject.count == 1, "the cut edge, straight: \(profile.subject.sorted())")
        #expect(profile.gaps == 0)
    }
}
