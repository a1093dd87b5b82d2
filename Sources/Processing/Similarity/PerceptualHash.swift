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
        PerceptualHash(coefficients: SampleGrid.averaged(image, value: SampleGrid.lumaOverGrey))
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

/// A square grid of one value per cell (32 x 32 unless told), each the average over its part of
/// the region, a pixel counting in each cell it overlaps by the overlap (so any size maps to the grid
/// without aliasing, and a copy at another size gives the same grid).
enum SampleGrid {
    /// A rectangle of an image; parts outside the image read as `outside`.
    struct Region {
        var x: Int, y: Int, width: Int, height: Int
    }

    /// A pixel's luma (Rec. 601 weights) blended by its alpha over mid-grey.
    static func lumaOverGrey(_ r: Float, _ g: Float, _ b: Float, _ a: Float) -> Float {
        a * (0.299 * r + 0.587 * g + 0.114 * b) + (1 - a) * 0.5
    }

    /// `value(r, g, b, a)` with channels in 0 ... 1, averaged over the whole image.
    static func averaged(_ image: RGBAImage, side: Int = 32, value: (Float, Float, Float, Float) -> Float) -> [Float] {
        averaged(image, region: Region(x: 0, y: 0, width: image.width, height: image.height), side: side, outside: 0, value: value)
    }

    /// `value(r, g, b, a)` averaged over `region`, whose pixels outside the image count as `outside`.
    /// Separable: each row is first summed into the grid's columns, then the row's sums into the
    /// grid's rows, so each pixel costs one `value` and a few additions: a few ms for a working-size photo.
    static func averaged(
        _ image: RGBAImage, region: Region, side: Int = 32, outside: Float, value: (Float, Float, Float, Float) -> Float
    ) -> [Float] {
        let columns = spans(length: region.width, side: side), rows = spans(length: region.height, side: side)
        var sums = [Float](repeating: 0, count: side * side)
        var line = [Float](repeating: 0, count: side)
        let scale: Float = 1 / 255
        image.pixels.withUnsafeBufferPointer { pixels in
            for (offsetY, rowCells) in rows.enumerated() {
                for cell in 0..<side { line[cell] = 0 }
                let y = region.y + offsetY
                for (offsetX, columnCells) in columns.enumerated() {
                    let x = region.x + offsetX
                    let sample: Float
                    if x >= 0, y >= 0, x < image.width, y < image.height {
                        let index = (y * image.width + x) * 4
                        sample = value(Float(pixels[index]) * scale, Float(pixels[index + 1]) * scale,
                                       Float(pixels[index + 2]) * scale, Float(pixels[index + 3]) * scale)
                    } else {
                        sample = outside
                    }
                    for (cell, weight) in columnCells { line[cell] += sample * weight }
                }
                for (rowCell, rowWeight) in rowCells {
                    for cell in 0..<side { sums[rowCell * side + cell] += line[cell] * rowWeight }
                }
            }
        }
        // Every cell covers (width / side) x (height / side) pixels.
        let area = Float(region.width) * Float(region.height) / Float(side * side)
        return sums.map { $0 / area }
    }

    /// For each pixel of a line of `length`, the cells it overlaps and by how much (in pixels).
    private static func spans(length: Int, side: Int) -> [[(cell: Int, weight: Float)]] {
        let cellLength = Double(length) / Double(side)
        return (0..<length).map { pixel in
            var cells: [(cell: Int, weight: Float)] = []
            var cell = min(side - 1, Int(Double(pixel) / cellLength))
            while cell < side, Double(cell) * cellLength < Double(pixel + 1) {
                let overlap = min(Double(pixel + 1), Double(cell + 1) * cellLength) - max(Double(pixel), Double(cell) * cellLength)
                if overlap > 1e-9 { cells.append((cell, Float(overlap))) }
                cell += 1
            }
            return cells
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
