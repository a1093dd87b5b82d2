/// Reduces frames to one shared palette of at most 256 RGBA colours (median cut), so an animated
/// PNG can store one byte a pixel: about a quarter of the size of full RGBA frames, which is what
/// lets a moving sticker meet a 300 KB limit. Entry 0 is always fully transparent. Deterministic.
public enum PaletteQuantizer {
    /// A palette and, per frame, one index a pixel.
    public struct Indexed: Sendable, Equatable {
        /// RGBA entries; entry 0 is transparent.
        public var palette: [(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)]
        public var indices: [[UInt8]]

        public static func == (lhs: Indexed, rhs: Indexed) -> Bool {
            lhs.indices == rhs.indices && lhs.palette.elementsEqual(rhs.palette) { $0 == $1 }
        }
    }

    /// `frames` (one size) reduced to at most `colors` entries (2...256), the transparent one included.
    public static func quantize(_ frames: [RGBAImage], colors: Int) -> Indexed {
        let colors = min(256, max(2, colors))
        let palette = [(UInt8(0), UInt8(0), UInt8(0), UInt8(0))] + medianCut(samples(of: frames), boxes: colors - 1)
        var lookup = NearestColorCache(palette: palette)
        let indices = frames.map { frame in
            var plane = [UInt8](repeating: 0, count: frame.width * frame.height)
            frame.pixels.withUnsafeBufferPointer { pixels in
                for pixel in plane.indices {
                    let offset = pixel * 4
                    plane[pixel] = lookup.index(pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
                }
            }
            return plane
        }
        return Indexed(palette: palette, indices: indices)
    }

    /// The visible pixels of all frames, at most about 262,144 of them, evenly spread.
    static func samples(of frames: [RGBAImage]) -> [SIMD4<Int32>] {
        let total = frames.reduce(0) { $0 + $1.width * $1.height }
        let step = max(1, total / 262_144)
        var samples: [SIMD4<Int32>] = []
        var counter = 0
        for frame in frames {
            frame.pixels.withUnsafeBufferPointer { pixels in
                var offset = 0
                while offset < pixels.count {
                    if pixels[offset + 3] > 0, counter % step == 0 {
                        samples.append(SIMD4(Int32(pixels[offset]), Int32(pixels[offset + 1]), Int32(pixels[offset + 2]), Int32(pixels[offset + 3])))
                    }
                    counter += 1
                    offset += 4
                }
            }
        }
        return samples
    }

    /// Splits the samples into at most `boxes` groups, each time halving the group with the widest
    /// spread (times its weight) at its median, and returns each group's mean colour.
    static func medianCut(_ samples: [SIMD4<Int32>], boxes: Int) -> [(UInt8, UInt8, UInt8, UInt8)] {
        guard !samples.isEmpty else { return [] }
        var groups: [[SIMD4<Int32>]] = [samples]
        while groups.count < boxes {
            var best: (group: Int, channel: Int, score: Int)?
            for (index, group) in groups.enumerated() where group.count > 1 {
                let (channel, range) = widestChannel(group)
                let score = range * range * group.count
                if range > 0, score > best?.score ?? 0 { best = (index, channel, score) }
            }
            guard let best else { break }
            let sorted = groups[best.group].sorted { lhs, rhs in
                lhs[best.channel] != rhs[best.channel] ? lhs[best.channel] < rhs[best.channel] : lhs.sumOfSquares() < rhs.sumOfSquares()
            }
            let middle = sorted.count / 2
            groups[best.group] = Array(sorted[..<middle])
            groups.append(Array(sorted[middle...]))
        }
        return groups.map { group in
            let sum = group.reduce(SIMD4<Int64>.zero) { $0 &+ SIMD4<Int64>(truncatingIfNeeded: $1) }
            let count = Int64(group.count)
            let mean = (sum &+ SIMD4(repeating: count / 2)) / SIMD4(repeating: count)
            return (UInt8(clamping: mean[0]), UInt8(clamping: mean[1]), UInt8(clamping: mean[2]), UInt8(clamping: max(1, mean[3])))
        }
    }

    /// The channel with the largest range in `group` and that range (alpha counted double: an edge's
    /// transparency shows more than a small shift in colour).
    static func widestChannel(_ group: [SIMD4<Int32>]) -> (channel: Int, range: Int) {
        var low = SIMD4<Int32>(repeating: 255), high = SIMD4<Int32>(repeating: 0)
        for sample in group {
            low = pointwiseMin(low, sample)
            high = pointwiseMax(high, sample)
        }
        let ranges = [Int(high[0] - low[0]), Int(high[1] - low[1]), Int(high[2] - low[2]), Int(high[3] - low[3]) * 2]
        let channel = ranges.indices.max { ranges[$0] < ranges[$1] } ?? 0
        return (channel, ranges[channel])
    }
}

/// The nearest palette entry of a colour, remembered per colour cell (5 bits of red, green and blue,
/// 4 of alpha) so each cell is searched once.
struct NearestColorCache {
    let palette: [(UInt8, UInt8, UInt8, UInt8)]
    private var cells = [UInt16](repeating: .max, count: 1 << 19)

    init(palette: [(UInt8, UInt8, UInt8, UInt8)]) {
        self.palette = palette
    }

    mutating func index(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8) -> UInt8 {
        if alpha == 0 { return 0 }
        let cell = Int(red >> 3) << 14 | Int(green >> 3) << 9 | Int(blue >> 3) << 4 | Int(alpha >> 4)
        if cells[cell] != .max { return UInt8(cells[cell]) }
        // The cell's centre stands for every colour in it.
        let centre = (Int(red & 0xF8) + 4, Int(green & 0xF8) + 4, Int(blue & 0xF8) + 4, Int(alpha & 0xF0) + 8)
        var best = 0, bestDistance = Int.max
        for (index, entry) in palette.enumerated() {
            let red = Int(entry.0) - centre.0, green = Int(entry.1) - centre.1, blue = Int(entry.2) - centre.2
            let alpha = Int(entry.3) - centre.3
            let distance = 2 * red * red + 4 * green * green + blue * blue + 3 * alpha * alpha
            if distance < bestDistance { (best, bestDistance) = (index, distance) }
        }
        cells[cell] = UInt16(best)
        return UInt8(best)
    }
}

extension SIMD4 where Scalar == Int32 {
    fileprivate func sumOfSquares() -> Int32 { (self &* self).wrappedSum() }
}
