import Testing
@testable import Processing

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
