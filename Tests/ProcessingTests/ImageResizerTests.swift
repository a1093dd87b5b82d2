import Testing
import CResampleRows
@testable import Processing

@Suite(.timeLimit(.minutes(15)))
struct ImageResizerTests {
    @Test(arguments: [(7, 5, 3, 2), (3, 2, 7, 5), (640, 480, 64, 48), (10, 10, 10, 3), (1, 1, 4, 9), (9, 4, 1, 1)])
    func uniformColourStaysUniform(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        let image = RGBAImage(width: sourceWidth, height: sourceHeight, red: 200, green: 100, blue: 7, alpha: 180)
        let resized = ImageResizer.resized(image, width: width, height: height)
        #expect(resized == RGBAImage(width: width, height: height, red: 200, green: 100, blue: 7, alpha: 180))
    }

    @Test func shrinkingAveragesTheCoveredArea() {
        let grey: [UInt8] = [0, 100, 200, 250]
        let image = RGBAImage(width: 4, height: 1, pixels: grey.flatMap { [$0, $0, $0, 255] })
        let half = ImageResizer.resized(image, width: 2, height: 1)
        #expect(half.pixels == [50, 50, 50, 255, 225, 225, 225, 255])
        // A third of the way: 4 → 3 covers 1⅓ pixels each: (0 + 100/3) / (4/3) = 25, ...
        let three = ImageResizer.resized(image, width: 3, height: 1)
        #expect(three.pixels.enumerated().filter { $0.offset % 4 == 0 }.map(\.element) == [25, 150, 238])
    }

    @Test func transparentColourDoesNotBleed() {
        // Left half opaque red, right half fully transparent green.
        let width = 16, height = 8
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width { pixels += x < width / 2 ? [255, 0, 0, 255] : [0, 255, 0, 0] }
        }
        let image = RGBAImage(width: width, height: height, pixels: pixels)
        for (w, h) in [(5, 3), (8, 4), (3, 2), (40, 17)] {
            let resized = ImageResizer.resized(image, width: w, height: h)
            for y in 0..<h {
                for x in 0..<w {
                    let pixel = resized.pixel(x: x, y: y)
                    if pixel.alpha > 0 {
                        #expect(pixel.red == 255 && pixel.green == 0 && pixel.blue == 0, "\(w)x\(h) at \(x),\(y): \(pixel)")
                    }
                }
            }
            // The edge column is partly covered, so partly transparent — but still pure red.
            #expect(resized.hasTransparency)
        }
    }

    @Test func enlargingIsBilinear() {
        let image = RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 200, 200, 200, 255])
        let wide = ImageResizer.resized(image, width: 4, height: 1)
        // Destination centres map to source x = -0.25, 0.25, 0.75, 1.25 → clamped, 1/4, 3/4, clamped.
        #expect(wide.pixels.enumerated().filter { $0.offset % 4 == 0 }.map(\.element) == [0, 50, 150, 200])
    }

    @Test func fittedKeepsTheAspectRatio() {
        let landscape = RGBAImage(width: 400, height: 300, red: 1, green: 2, blue: 3)
        #expect(size(ImageResizer.fitted(landscape, longSide: 100)) == [100, 75])
        let portrait = RGBAImage(width: 300, height: 400, red: 1, green: 2, blue: 3)
        #expect(size(ImageResizer.fitted(portrait, longSide: 100)) == [75, 100])
        let line = RGBAImage(width: 1000, height: 1, red: 1, green: 2, blue: 3)
        #expect(size(ImageResizer.fitted(line, longSide: 10)) == [10, 1])
        #expect(size(ImageResizer.fitted(landscape, longSide: 0)) == [1, 1])
        #expect(ImageResizer.fitted(landscape, longSide: 400) == landscape)
    }

    @Test func resizedClampsEmptySizes() {
        let image = RGBAImage(width: 4, height: 4, red: 9, green: 9, blue: 9)
        #expect(size(ImageResizer.resized(image, width: 0, height: -3)) == [1, 1])
    }

    private func size(_ image: RGBAImage) -> [Int] { [image.width, image.height] }
}

/// The vertical pass in C against the Swift loop it replaced, kept here as the reference.
@Suite(.timeLimit(.minutes(15)))
struct ResampleColumnTests {
    /// The former Swift vertical pass for one output row: the sum in tap order, then straight bytes.
    static func reference(_ rows: [[SIMD4<Float>]], weights: [Float], width: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for x in 0..<width {
            var sum = weights[0] * rows[0][x]
            for tap in 1..<rows.count { sum += weights[tap] * rows[tap][x] }
            let alpha = sum[3]
            guard alpha >= 0.5 else {
                bytes += [0, 0, 0, 0]
                continue
            }
            var straight = sum * (1 / alpha)
            straight[3] = alpha
            let clamped = SIMD4(min(straight[0], 255), min(straight[1], 255), min(straight[2], 255), min(alpha, 255))
            let bits = unsafeBitCast(clamped + 12_582_912, to: SIMD4<UInt32>.self)
            bytes += [UInt8(truncatingIfNeeded: bits[0]), UInt8(truncatingIfNeeded: bits[1]),
                      UInt8(truncatingIfNeeded: bits[2]), UInt8(truncatingIfNeeded: bits[3])]
        }
        return bytes
    }

    @Test(arguments: [(1, 1), (3, 1), (4, 2), (5, 3), (17, 4), (64, 2), (131, 7)])
    func matchesTheFormerSwiftLoop(width: Int, taps: Int) {
        var state: UInt64 = UInt64(width * 31 + taps)
        func random() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        for round in 0..<20 {
            // Premultiplied pixels: alpha in 0...255 (some below half a level, some exactly at it),
            // colours up to alpha times 255 and a little over (rounding past 255 must clamp).
            let rows: [[SIMD4<Float>]] = (0..<taps).map { _ in
                (0..<width).map { _ in
                    let alpha: Float = switch Int(random() * 8) {
                    case 0: random() * 0.5
                    case 1: 0.5
                    case 2: 255
                    default: random() * 255
                    }
                    let stretch: Float = round % 3 == 0 ? 1.02 : 1
                    return SIMD4(random() * alpha * 255 * stretch, random() * alpha * 255, alpha * 255 * stretch, alpha)
                }
            }
            let raw = (0..<taps).map { _ in random() + 0.01 }
            let total = raw.reduce(0, +)
            let weights = raw.map { $0 / total }
            let expected = Self.reference(rows, weights: weights, width: width)
            let flat = rows.map { $0.flatMap { [$0[0], $0[1], $0[2], $0[3]] } }
            var output = [UInt8](repeating: 7, count: width * 4)
            flat.withUnsafeBufferPointers { pointers in
                resample_column_unpremultiplied(pointers, taps, weights, width, &output)
            }
            #expect(output == expected, "width \(width), taps \(taps), round \(round)")
        }
    }
}

extension Array where Element == [Float] {
    /// Pointers to each inner array's floats, valid inside `body`.
    fileprivate func withUnsafeBufferPointers<R>(_ body: ([UnsafePointer<Float>?]) -> R) -> R {
        func nest(_ index: Int, _ pointers: [UnsafePointer<Float>?]) -> R {
            guard index < count else { return body(pointers) }
            return self[index].withUnsafeBufferPointer { nest(index + 1, pointers + [$0.baseAddress]) }
        }
        return nest(0, [])
    }
}
