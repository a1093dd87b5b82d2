import CSegmentationKernels

/// A byte mask scaled up (bilinear, pixel centres aligned) one output row at a time, for writing a
/// photo-sized mask without holding it: a 12 MP mask is 12 MB that only the PNG encoder reads,
/// row by row. The bytes are `PlaneResampler.bilinear`'s for the same sizes.
struct MaskRowScaler {
    let width: Int
    let height: Int
    let toWidth: Int
    let toHeight: Int
    private let values: [Float]
    private let columnFirst: [Int]
    private let columnSecond: [Int]
    private let columnWeight: [Float]
    private let rowTaps: [(first: Int, second: Int, weight: Float)]
    // The two source rows the current output row blends, interpolated across.
    private var upper: (index: Int, values: [Float])
    private var lower: (index: Int, values: [Float])

    init(_ mask: [UInt8], width: Int, height: Int, toWidth: Int, toHeight: Int) {
        precondition(mask.count == width * height && width > 0 && height > 0 && toWidth > 0 && toHeight > 0,
                     "MaskRowScaler: \(mask.count) values for \(width)x\(height) -> \(toWidth)x\(toHeight)")
        self.width = width
        self.height = height
        self.toWidth = toWidth
        self.toHeight = toHeight
        values = mask.map(Float.init)
        let columns = PlaneResampler.taps(from: width, to: toWidth)
        columnFirst = columns.map(\.first)
        columnSecond = columns.map(\.second)
        columnWeight = columns.map(\.weight)
        rowTaps = PlaneResampler.taps(from: height, to: toHeight)
        upper = (-1, [Float](repeating: 0, count: toWidth))
        lower = (-1, [Float](repeating: 0, count: toWidth))
    }

    /// Writes output row `y` (`toWidth` bytes) into `row`.
    mutating func fill(row y: Int, into row: UnsafeMutablePointer<UInt8>) {
        let tap = rowTaps[y]
        if upper.index != tap.first {
            if lower.index == tap.first {
                swap(&upper, &lower)
            } else {
                interpolateAcross(tap.first, into: &upper.values)
                upper.index = tap.first
            }
        }
        if lower.index != tap.second {
            interpolateAcross(tap.second, into: &lower.values)
            lower.index = tap.second
        }
        upper.values.withUnsafeBufferPointer { top in
            lower.values.withUnsafeBufferPointer { bottom in
                sk_blend_rows_to_bytes(top.baseAddress, bottom.baseAddress, tap.weight, Int32(toWidth), row)
            }
        }
    }

    private func interpolateAcross(_ sourceRow: Int, into target: inout [Float]) {
        let base = sourceRow * width
        values.withUnsafeBufferPointer { source in
            columnFirst.withUnsafeBufferPointer { first in
                columnSecond.withUnsafeBufferPointer { second in
                    columnWeight.withUnsafeBufferPointer { weight in
                        target.withUnsafeMutableBufferPointer { target in
                            for x in 0..<target.count {
                                let a = source[base + first[x]], b = source[base + second[x]]
                                target[x] = a + (b - a) * weight[x]
                            }
                        }
                    }
                }
            }
        }
    }
}
