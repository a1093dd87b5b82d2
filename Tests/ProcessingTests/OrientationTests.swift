import Testing
@testable import Processing

/// `Orientation.apply` on a 3x2 image whose pixels are all different:
///
///     a b c
///     d e f
@Suite(.timeLimit(.minutes(15)))
struct OrientationTests {
    /// Pixel "names" 0...5 are stored in the red channel (a = 0 ... f = 5).
    let source: RGBAImage = {
        var pixels: [UInt8] = []
        for index in 0..<6 { pixels += [UInt8(index), 0, 0, 255] }
        return RGBAImage(width: 3, height: 2, pixels: pixels)
    }()

    /// The names of the image's pixels, row by row.
    func layout(_ image: RGBAImage) -> [[Character]] {
        (0..<image.height).map { y in
            (0..<image.width).map { x in Character(UnicodeScalar(UInt8(ascii: "a") + image.pixel(x: x, y: y).red)) }
        }
    }

    @Test(arguments: [
        (1, ["abc", "def"]),
        (2, ["cba", "fed"]),
        (3, ["fed", "cba"]),
        (4, ["def", "abc"]),
        (5, ["ad", "be", "cf"]),
        (6, ["da", "eb", "fc"]),
        (7, ["fc", "eb", "da"]),
        (8, ["cf", "be", "ad"]),
    ])
    func orientationMovesEveryPixel(orientation: Int, expected: [String]) {
        let result = Orientation.apply(orientation, to: source)
        #expect(layout(result) == expected.map(Array.init))
        #expect(result.width == expected[0].count)
        #expect(result.height == expected.count)
    }

    @Test(arguments: [0, 9, -1, 1000])
    func outOfRangeLeavesTheImageAlone(orientation: Int) {
        #expect(Orientation.apply(orientation, to: source) == source)
    }

    @Test func sixAndEightUndoEachOther() {
        let image = Fixtures.noise(width: 70, height: 130)
        #expect(Orientation.apply(8, to: Orientation.apply(6, to: image)) == image)
        for selfInverse in [2, 3, 4, 5, 7] {
            #expect(Orientation.apply(selfInverse, to: Orientation.apply(selfInverse, to: image)) == image)
        }
    }

    @Test func keepsAlpha() {
        let image = RGBAImage(width: 5, height: 3, pixels: (0..<15).flatMap { [UInt8($0), 1, 2, UInt8($0 * 10)] })
        let rotated = Orientation.apply(6, to: image)
        #expect(rotated.pixel(x: 2, y: 0) == (0, 1, 2, 0))  // a (top left) goes to the top right
        #expect(rotated.pixel(x: 0, y: 0) == (10, 1, 2, 100))  // the bottom left comes to the top left
    }
}
