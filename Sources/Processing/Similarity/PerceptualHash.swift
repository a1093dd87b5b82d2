import Foundation

/// A 64-bit perceptual hash: the signs of an image's lowest spatial frequencies against their
/// median, from a 32 x 32 area-averaged copy of one channel. Resizing, recompressing, a change of
/// format and small colour shifts move few bits; different pictures differ in about half of them.
/// Two hashes are compared by their Hamming distance (`distance(to:)`).
///
/// The DCT version of the classic pHash: the transform packs a picture's layout into the top-left
/// coefficients, and the median threshold makes the bits independent of brightness and contrast.
public struct PerceptualHash: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 64 bits, the coefficient (u, v) at bit 8 v + u.
    public let bits: UInt64

    public init(bits: UInt64) { self.bits = bits }

    /// How many bits differ: 0 for the same picture, about 32 for unrelated ones.
    public func distance(to other: PerceptualHash) -> Int { (bits ^ other.bits).nonzeroBitCount }

    /// 16 lower-case hex digits.
    public var description: String {
        let hex = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The photo's hash, from its luma (Rec. 601 weights) over mid-grey: what transparent pixels hide
    /// (white, black, anything an editor left there) does not count.
    public static func ofLuma(_ image: RGBAImage) -> PerceptualHash {
        let plane = LumaPlane(image)
        return PerceptualHash(coefficients: SampleGrid.averaged(plane, region: plane.whole, outside: 0.5))
    }

    /// The hash of a 32 x 32 grid of samples.
    init(coefficients grid: [Float]) {
        let transformed = DCT32.lowFrequencies(grid)
        // The DC term says only how bright the picture is: left out of the median (as it is far
        // from the others it would move the threshold), kept as bit 0 against it.
        let median = transformed.dropFirst().sorted()[31]
        var bits: UInt64 = 0
        for (index, value) in transformed.enumerated() where value > median { bits |= 1 << UInt64(index) }
        self.bits = bits
    }
}

/// One channel of an image as floats in 0 ... 1: the luma (Rec. 601 weights) of each pixel blended
/// by its alpha over mid-grey, so that what transparent pixels hide does not count. A plane may be
/// `step` times smaller than the image (each value the mean of step x step pixels): hashes read 32 x 32
/// cells, and halving a working-size photo first makes every later pass four times cheaper.
struct LumaPlane {
    let width: Int
    let height: Int
    /// Image pixels per plane value, along each side.
    let step: Int
    var values: [Float]

    /// The whole image's plane, halved when both sides keep at least 128 values.
    init(_ image: RGBAImage) {
        self.init(image, region: SampleGrid.Region(x: 0, y: 0, width: image.width, height: image.height))
    }

    /// The plane of `region` of `image` (outside the image, grey), halved when both sides keep at least
    /// 128 values.
    init(_ image: RGBAImage, region: SampleGrid.Region) {
        step = min(region.width, region.height) >= 256 ? 2 : 1
        width = region.width / step
        height = region.height / step
        var values = [Float](repeating: 0.5, count: width * height)
        let step = self.step, width = self.width, height = self.height
        // Luma in 16-bit fixed point (Rec. 601 weights: 0 ... 65280), grey is 32640; a plane value sums step x step of them.
        let grey = 32_640, scale = 1 / Float(step * step * 65_280)
        let left = max(0, region.x), right = min(image.width, region.x + width * step)
        let sums = UnsafeMutableBufferPointer<Int>.allocate(capacity: width), counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: width)
        defer { sums.deallocate(); counts.deallocate() }
        image.pixels.withUnsafeBufferPointer { pixels in
            values.withUnsafeMutableBufferPointer { plane in
                for row in 0..<height {
                    sums.update(repeating: 0)
                    counts.update(repeating: 0)
                    for y in (region.y + row * step)..<(region.y + (row + 1) * step) where y >= 0 && y < image.height && left < right {
                        var source = (y * image.width + left) * 4
                        var cell = (left - region.x) / step, phase = (left - region.x) % step
                        for _ in left..<right {
                            let luma = (Int(pixels[source]) &* 19_595 &+ Int(pixels[source + 1]) &* 38_470 &+ Int(pixels[source + 2]) &* 7_471) >> 8
                            let alpha = Int(pixels[source + 3])
                            // Most photos are opaque throughout; a transparent part is blended over grey.
                            sums[cell] &+= alpha == 255 ? luma : (luma &* alpha &+ grey &* (255 &- alpha)) / 255
                            counts[cell] &+= 1
                            source &+= 4
                            phase &+= 1
                            if phase == step { phase = 0; cell &+= 1 }
                        }
                    }
                    for index in 0..<width {
                        plane[row * width + index] = Float(sums[index] + (step * step - counts[index]) * grey) * scale
                    }
                }
            }
        }
        self.values = values
    }

    /// The plane's own rectangle.
    var whole: SampleGrid.Region { SampleGrid.Region(x: 0, y: 0, width: width, height: height) }

    /// `region` of the image, in this plane's values.
    func scaled(_ region: SampleGrid.Region) -> SampleGrid.Region {
        SampleGrid.Region(x: region.x / step, y: region.y / step, width: max(1, region.width / step), height: max(1, region.height / step))
    }
}

/// A square grid of one value per cell (32 x 32 unless told), each the average over its part of
/// the region, a pixel counting in each cell it overlaps by the overlap (so any size maps to the grid
/// without aliasing, and a copy at another size gives the same grid).
enum SampleGrid {
    /// A rectangle of an image or a plane; parts outside it read as the caller says.
    struct Region {
        var x: Int, y: Int, width: Int, height: Int
    }

    /// `region` of `plane` averaged into the grid; the region's parts outside the plane count as `outside`.
    /// Separable: each row is first summed into the grid's columns, then the row's sums into the grid's
    /// rows, so each pixel costs one or two multiply-adds: a few ms for a working-size photo.
    static func averaged(_ plane: LumaPlane, region: Region, side: Int = 32, outside: Float) -> [Float] {
        let columns = Spans(length: region.width, side: side), rows = Spans(length: region.height, side: side)
        // One slot past the grid: a pixel's second cell when it has none (weight 0).
        var sums = [Float](repeating: 0, count: side * side)
        var line = [Float](repeating: 0, count: side + 1)
        let rowSpans = (0..<region.height).map { rows.spans(of: $0) }
        let columnLists = columns.isPaired ? [] : (0..<region.width).map { columns.spans(of: $0) }
        plane.values.withUnsafeBufferPointer { values in
            line.withUnsafeMutableBufferPointer { line in
                sums.withUnsafeMutableBufferPointer { sums in
                    columns.first.withUnsafeBufferPointer { first in
                        columns.firstWeight.withUnsafeBufferPointer { firstWeight in
                            columns.secondWeight.withUnsafeBufferPointer { secondWeight in
                                for offsetY in 0..<region.height {
                                    line.update(repeating: 0)
                                    let y = region.y + offsetY
                                    if y >= 0 && y < plane.height && columns.isPaired {
                                        let rowStart = y * plane.width
                                        for offsetX in 0..<region.width {
                                            let x = region.x + offsetX
                                            let sample = x >= 0 && x < plane.width ? values[rowStart + x] : outside
                                            let cell = first[offsetX]
                                            line[cell] += sample * firstWeight[offsetX]
                                            line[cell + 1] += sample * secondWeight[offsetX]
                                        }
                                    } else {
                                        for offsetX in 0..<region.width {
                                            let x = region.x + offsetX
                                            let inside = y >= 0 && y < plane.height && x >= 0 && x < plane.width
                                            let sample = inside ? values[y * plane.width + x] : outside
                                            let spans = columns.isPaired
                                                ? [(first[offsetX], firstWeight[offsetX]), (first[offsetX] + 1, secondWeight[offsetX])]
                                                : columnLists[offsetX]
                                            for span in spans { line[span.0] += sample * span.1 }
                                        }
                                    }
                                    for span in rowSpans[offsetY] where span.cell < side {
                                        let row = span.cell * side
                                        for cell in 0..<side { sums[row + cell] += line[cell] * span.weight }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Every cell covers (width / side) x (height / side) pixels.
        let area = Float(region.width) * Float(region.height) / Float(side * side)
        return sums.map { $0 / area }
    }

    /// For each pixel of a line of `length`, the cells it overlaps and by how much (in pixels). A line
    /// at least as long as the grid has pixels no larger than a cell: each overlaps one cell, or two
    /// side by side, kept as flat arrays for the hot loop; a shorter line keeps lists.
    struct Spans {
        /// Whether every pixel is in `first`, `firstWeight`, `secondWeight` (else in `lists`).
        let isPaired: Bool
        private(set) var first: [Int] = []
        private(set) var firstWeight: [Float] = []
        private(set) var secondWeight: [Float] = []
        private(set) var lists: [[(cell: Int, weight: Float)]] = []

        init(length: Int, side: Int) {
            isPaired = length >= side
            let cellLength = Double(length) / Double(side)
            for pixel in 0..<length {
                var list: [(cell: Int, weight: Float)] = []
                var cell = min(side - 1, Int(Double(pixel) / cellLength))
                while cell < side, Double(cell) * cellLength < Double(pixel + 1) {
                    let overlap = min(Double(pixel + 1), Double(cell + 1) * cellLength) - max(Double(pixel), Double(cell) * cellLength)
                    if overlap > 1e-9 { list.append((cell, Float(overlap))) }
                    cell += 1
                }
                if isPaired {
                    first.append(list.first?.cell ?? 0)
                    firstWeight.append(list.first?.weight ?? 0)
                    secondWeight.append(list.count > 1 ? list[1].weight : 0)
                } else {
                    lists.append(list)
                }
            }
        }

        /// Pixel `pixel`'s cells and weights (the second cell, when it has none, is the spare slot past
        /// its first with weight 0). For the rows, once per row; the columns' hot loop reads the arrays.
        func spans(of pixel: Int) -> [(cell: Int, weight: Float)] {
            isPaired ? [(first[pixel], firstWeight[pixel]), (first[pixel] + 1, secondWeight[pixel])] : lists[pixel]
        }
    }
}

/// The 2-D DCT-II of a 32 x 32 grid, only the 8 x 8 lowest frequencies (what a hash keeps).
enum DCT32 {
    private static let n = 32, kept = 8
    /// cos((2x + 1) u pi / 64) for u < 8, x < 32.
    private static let basis: [Float] = (0..<kept).flatMap { u in
        (0..<n).map { x in Float(cos(Double((2 * x + 1) * u) * Double.pi / Double(2 * n))) }
    }

    /// Coefficients (u, v) for u, v < 8, at index 8 v + u.
    static func lowFrequencies(_ grid: [Float]) -> [Float] {
        // Rows first (32 rows x 8 frequencies), then the columns of those.
        let rows = (0..<n).flatMap { y in transform { grid[y * n + $0] } }
        let columns = (0..<kept).map { u in transform { rows[$0 * kept + u] } }
        return (0..<kept * kept).map { columns[$0 % kept][$0 / kept] }
    }

    /// The 8 lowest frequencies of the 32 samples `sample(0 ..< 32)`.
    private static func transform(_ sample: (Int) -> Float) -> [Float] {
        let samples = (0..<n).map(sample)
        return (0..<kept).map { u in (0..<n).reduce(0) { $0 + samples[$1] * basis[u * n + $1] } }
    }
}
