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

    /// The photo's hash, from its luma (Rec. 601 weights; alpha ignored).
    public static func ofLuma(_ image: RGBAImage) -> PerceptualHash {
        let grid = SampleGrid.averaged(image) { r, g, b, _ in 0.299 * r + 0.587 * g + 0.114 * b }
        return PerceptualHash(coefficients: grid)
    }

    /// The hash of a 32 x 32 grid of samples.
    private init(coefficients grid: [Double]) {
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
/// the image.
enum SampleGrid {

    /// `value(r, g, b, a)` with channels in 0 ... 1, averaged over each cell's pixels (a pixel
    /// counts in each cell it overlaps, by the overlap, so any size maps without aliasing).
    static func averaged(_ image: RGBAImage, side: Int = 32, value: (Double, Double, Double, Double) -> Double) -> [Double] {
        averaged(width: image.width, height: image.height, side: side) { x, y in
            let p = image.pixel(x: x, y: y)
            return value(Double(p.red) / 255, Double(p.green) / 255, Double(p.blue) / 255, Double(p.alpha) / 255)
        }
    }

    /// `sample(x, y)` over a `width` x `height` area, averaged into the grid.
    static func averaged(width: Int, height: Int, side: Int = 32, sample: (Int, Int) -> Double) -> [Double] {
        var sums = [Double](repeating: 0, count: side * side)
        var weights = [Double](repeating: 0, count: side * side)
        let columns = spans(length: width, side: side), rows = spans(length: height, side: side)
        for y in 0..<height {
            for x in 0..<width {
                let value = sample(x, y)
                for (row, rowWeight) in rows[y] {
                    for (column, columnWeight) in columns[x] {
                        let weight = rowWeight * columnWeight
                        sums[row * side + column] += value * weight
                        weights[row * side + column] += weight
                    }
                }
            }
        }
        return zip(sums, weights).map { $1 > 0 ? $0 / $1 : 0 }
    }

    /// For each pixel of a line of `length`, the cells it falls in and by how much.
    private static func spans(length: Int, side: Int) -> [[(Int, Double)]] {
        let scale = Double(side) / Double(length)
        return (0..<length).map { pixel in
            let start = Double(pixel) * scale, end = Double(pixel + 1) * scale
            var cells: [(Int, Double)] = []
            var cell = Int(start)
            while cell < side, Double(cell) < end {
                let overlap = min(end, Double(cell + 1)) - max(start, Double(cell))
                if overlap > 1e-12 { cells.append((cell, overlap)) }
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
    private static let basis: [Double] = (0..<kept).flatMap { u in
        (0..<n).map { x in cos(Double((2 * x + 1) * u) * Double.pi / Double(2 * n)) }
    }

    /// Coefficients (u, v) for u, v < 8, at index 8 v + u.
    static func lowFrequencies(_ grid: [Double]) -> [Double] {
        // Rows first (32 rows x 8 frequencies), then the columns of those.
        let rows = (0..<n).flatMap { y in transform { grid[y * n + $0] } }
        let columns = (0..<kept).map { u in transform { rows[$0 * kept + u] } }
        return (0..<kept * kept).map { columns[$0 % kept][$0 / kept] }
    }

    /// The 8 lowest frequencies of the 32 samples `sample(0 ..< 32)`.
    private static func transform(_ sample: (Int) -> Double) -> [Double] {
        let samples = (0..<n).map(sample)
        return (0..<kept).map { u in (0..<n).reduce(0) { $0 + samples[$1] * basis[u * n + $1] } }
    }
}
