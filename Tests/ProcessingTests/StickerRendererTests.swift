import CSegmentationKernels
import Testing
@testable import Processing

/// Crop, scale and outline geometry of the sticker renderer, mask clean-up, distance transform.
@Suite(.timeLimit(.minutes(15))) struct StickerRendererTests {
    /// A transparent canvas with an opaque red `width` x `height` rectangle at (x, y).
    private func cutout(canvas: Int = 400, x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
        var image = RGBAImage(width: canvas, height: canvas, red: 0, green: 0, blue: 255, alpha: 0)
        for row in y..<(y + height) {
            for column in x..<(x + width) {
                let offset = (row * canvas + column) * 4
                image.pixels.replaceSubrange(offset..<offset + 4, with: [200, 20, 30, 255])
            }
        }
        return image
    }

    @Test func wideSubjectFillsTheWidthWithItsOutline() throws {
        let style = StickerStyle.default
        // As if cut out of a copy of a photo four times as large (so enlarged 2.46 times here, not
        // past `maxEnlargement` in the photo's own pixels).
        let sticker = try StickerRenderer.render(cutout(x: 150, y: 175, width: 200, height: 50), style: style, sourceScale: 4)
        #expect(sticker.width == 512)
        let padding = style.padding  // 8 px outline + 2 px anti-aliasing room
        #expect(padding == 10)
        let scaledHeight = Int((50.0 * Double(512 - 2 * padding) / 200).rounded())
        #expect(sticker.height == scaledHeight + 2 * padding)

        let middleRow = sticker.height / 2
        // The subject keeps its colour...
        #expect(sticker.pixel(x: 256, y: middleRow) == (200, 20, 30, 255))
        // ...the outline is opaque white up to 8 px out from its edge (which sits at x = padding)...
        for x in [padding - 1, padding - 4, padding - 7] {
            #expect(sticker.pixel(x: x, y: middleRow) == (255, 255, 255, 255), "x = \(x)")
        }
        // ...and beyond it the sticker is transparent.
        #expect(sticker.pixel(x: 0, y: middleRow).alpha == 0)
        #expect(sticker.pixel(x: 0, y: 0).alpha == 0)
    }

    @Test func tallSubjectFillsTheHeight() throws {
        let sticker = try StickerRenderer.render(cutout(x: 10, y: 10, width: 30, height: 300), style: .default)
        #expect(sticker.height == 512)
        #expect(sticker.width < 512 && sticker.width > 40)
    }

    @Test func noOutlineLeavesNoWhite() throws {
        let style = StickerStyle(size: 256, outline: 0, shadow: false)
        let sticker = try StickerRenderer.render(cutout(x: 100, y: 100, width: 100, height: 100), style: style, sourceScale: 4)
        #expect(sticker.width == 256 && sticker.height == 256)
        for index in stride(from: 0, to: sticker.pixels.count, by: 4) where sticker.pixels[index + 3] > 0 {
            #expect(sticker.pixels[index] == 200, "only subject pixels are visible")
        }
        #expect(sticker.pixel(x: style.padding - 1, y: 128).alpha == 0)
    }

    @Test func shadowFallsBelowTheSticker() throws {
        let style = StickerStyle(size: 256, outline: 8, shadow: true)
        let sticker = try StickerRenderer.render(cutout(x: 100, y: 100, width: 100, height: 100), style: style)
        let below = sticker.pixel(x: 128, y: sticker.height - style.padding + style.outline / 2 + 2)
        let above = sticker.pixel(x: 128, y: style.padding - style.outline / 2 - 2)
        #expect(below.alpha > above.alpha, "the shadow is offset downwards")
        #expect(below.red == 0 && below.alpha < 128, "a soft dark shadow")
    }

    @Test func emptyCutoutHasNoSubject() {
        let empty = RGBAImage(width: 20, height: 20, red: 0, green: 0, blue: 0, alpha: 0)
        #expect(throws: ProcessingError.noSubject("the cut-out is fully transparent")) {
            try StickerRenderer.render(empty, style: .default)
        }
    }

    @Test func cleanupKeepsTheSubjectDropsSpecksFillsHoles() {
        let width = 60, height = 40
        var mask = [UInt8](repeating: 0, count: width * height)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ value: UInt8) {
            for y in y0..<y1 { for x in x0..<x1 { mask[y * width + x] = value } }
        }
        fill(10, 10, 40, 30, 255)  // the subject
        fill(20, 18, 22, 20, 0)  // a small hole in it
        fill(50, 5, 52, 7, 255)  // a speck
        fill(9, 10, 10, 30, 100)  // a soft edge on the subject's left
        let cleaned = MaskCleanup.cleaned(mask, width: width, height: height)
        #expect(cleaned[19 * width + 21] == 255, "hole filled")
        #expect(cleaned[6 * width + 51] == 0, "speck removed")
        #expect(cleaned[20 * width + 9] == 100, "soft edge kept")
        #expect(cleaned[20 * width + 30] == 255)
    }

    @Test func distanceTransformIsEuclidean() {
        let width = 9, height = 7
        var set = [Bool](repeating: false, count: width * height)
        set[3 * width + 4] = true
        let distances = DistanceTransform.distances(toSet: set, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let expected = Float(((x - 4) * (x - 4) + (y - 3) * (y - 3))).squareRoot()
                #expect(abs(distances[y * width + x] - expected) < 1e-4)
            }
        }
    }

    /// Several set pixels, an empty set, a full one: the nearest set pixel by brute force.
    @Test(arguments: [(23, 17, 5), (16, 31, 1), (12, 9, 0), (8, 6, 48), (1, 13, 3), (17, 1, 2), (40, 30, 200), (33, 25, 2)])
    func distanceTransformMatchesBruteForce(width: Int, height: Int, points: Int) {
        var random = MaskCleanupTests.Random(state: UInt64(width * height + points))
        var set = [Bool](repeating: false, count: width * height)
        if points >= width * height { set = set.map { _ in true } }
        for _ in 0..<points { set[random.next(width * height)] = true }
        let distances = DistanceTransform.distances(toSet: set, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var nearest = Int.max
                for index in set.indices where set[index] {
                    let dx = index % width - x, dy = index / width - y
                    nearest = min(nearest, dx * dx + dy * dy)
                }
                let expected = nearest == Int.max ? Float(1e20).squareRoot() : Float(nearest).squareRoot()
                #expect(distances[y * width + x] == expected, "(\(x), \(y))")
            }
        }
    }

    /// The crop box scan against testing every pixel, on scattered alphas around the threshold.
    @Test func subjectBoundsHoldEveryPixelAtTheThreshold() {
        var random = MaskCleanupTests.Random(state: 17)
        for trial in 0..<40 {
            let width = 1 + random.next(30), height = 1 + random.next(20)
            var image = RGBAImage(width: width, height: height, red: 1, green: 2, blue: 3, alpha: 0)
            for _ in 0..<random.next(6) {
                image.pixels[random.next(width * height) * 4 + 3] = UInt8(random.next(3) + Int(StickerRenderer.cropThreshold) - 1)
            }
            var expected: (x: Int, y: Int, width: Int, height: Int)?
            var minX = width, minY = height, maxX = -1, maxY = -1
            for y in 0..<height {
                for x in 0..<width where image.pixels[(y * width + x) * 4 + 3] >= StickerRenderer.cropThreshold {
                    (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
                }
            }
            if maxX >= 0 { expected = (minX, minY, maxX - minX + 1, maxY - minY + 1) }
            let found = StickerRenderer.subjectBounds(image)
            #expect(found.map { [$0.x, $0.y, $0.width, $0.height] } == expected.map { [$0.x, $0.y, $0.width, $0.height] }, "trial \(trial)")
        }
    }

    /// The renderer's per-pixel loops (C) against their Swift expressions written out plainly, on
    /// every kernel path.
    @Test func pixelLoopsMatchTheirPlainExpressionsOnEveryPath() {
        var random = MaskCleanupTests.Random(state: 17)
        let count = 301
        // Random bytes, some alphas 0 or 255.
        var rgba = [UInt8](repeating: 0, count: 4 * count)
        for index in 0..<(4 * count) {
            let edge = index % 4 == 3 && index % 7 == 0
            rgba[index] = edge ? (index % 2 == 0 ? 0 : 255) : UInt8(random.next(256))
        }
        var distances = [Float](repeating: 0, count: count)
        for index in 0..<count { distances[index] = Float(random.next(4000)) / 200 }
        var plainCanvas = [Float](repeating: 0, count: 4 * count), plainAlpha = [Float](repeating: 0, count: count)
        for x in 0..<count {
            let alpha = Float(rgba[4 * x + 3]) / 255
            plainAlpha[x] = alpha
            for channel in 0..<3 { plainCanvas[4 * x + channel] = Float(rgba[4 * x + channel]) / 255 * alpha }
            plainCanvas[4 * x + 3] = alpha
        }
        var plainCover = plainAlpha
        let width: Float = 8
        for index in 0..<count {
            let outline = min(1, max(0, width + 0.5 - distances[index]))
            guard outline > 0 else { continue }
            let below = 1 - plainCanvas[index * 4 + 3]
            for channel in 0..<3 { plainCanvas[index * 4 + channel] += outline * below }
            plainCanvas[index * 4 + 3] += outline * below
            plainCover[index] = plainCanvas[index * 4 + 3]
        }
        // Some pixels keep no alpha at all.
        for index in stride(from: 0, to: count, by: 11) { plainCanvas.replaceSubrange((4 * index)..<(4 * index + 4), with: [0, 0, 0, 0]) }
        var plainBytes = [UInt8](repeating: 0, count: 4 * count)
        for index in 0..<count {
            let alpha = plainCanvas[index * 4 + 3]
            guard alpha > 0 else { continue }
            for channel in 0..<3 {
                plainBytes[index * 4 + channel] = UInt8(min(255, max(0, (plainCanvas[index * 4 + channel] / alpha * 255).rounded())))
            }
            plainBytes[index * 4 + 3] = UInt8(min(255, max(0, (alpha * 255).rounded())))
        }
        for kernels in ConvolutionKernels.supported {
            var canvas = [Float](repeating: 0, count: 4 * count), alpha = [Float](repeating: 0, count: count)
            sk_sticker_premultiplied_with(kernels.rawValue, rgba, Int32(count), &canvas, &alpha)
            #expect(alpha == plainAlpha, "\(kernels)")
            var cover = alpha
            sk_sticker_outline_with(kernels.rawValue, &canvas, &cover, distances, width, count)
            #expect(cover == plainCover, "\(kernels)")
            for index in stride(from: 0, to: count, by: 11) { canvas.replaceSubrange((4 * index)..<(4 * index + 4), with: [0, 0, 0, 0]) }
            #expect(canvas == plainCanvas, "\(kernels)")
            var bytes = [UInt8](repeating: 7, count: 4 * count)
            sk_sticker_bytes_with(kernels.rawValue, canvas, count, &bytes)
            #expect(bytes == plainBytes, "\(kernels)")
        }
    }
}
