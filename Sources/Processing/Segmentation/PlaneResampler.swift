/// Bilinear resampling of one plane (a mask) with pixel centres aligned (half-pixel convention),
/// separable: each source row is interpolated across once, then each output row blends two of them.
enum PlaneResampler {
    /// `values` (`width * height`) resampled to `toWidth` x `toHeight`.
    static func bilinear(_ values: [Float], width: Int, height: Int, toWidth: Int, toHeight: Int) -> [Float] {
        resample(values, width: width, height: height, toWidth: toWidth, toHeight: toHeight) { $0 }
    }

    /// The same for bytes (0...255), rounded.
    static func bilinear(_ values: [UInt8], width: Int, height: Int, toWidth: Int, toHeight: Int) -> [UInt8] {
        resample(values.map(Float.init), width: width, height: height, toWidth: toWidth, toHeight: toHeight) {
            UInt8(min(255, max(0, $0 + 0.5)))
        }
    }

    private static func resample<T>(
        _ values: [Float], width: Int, height: Int, toWidth: Int, toHeight: Int, convert: (Float) -> T
    ) -> [T] {
        precondition(values.count == width * height && width > 0 && height > 0 && toWidth > 0 && toHeight > 0,
                     "PlaneResampler: \(values.count) values for \(width)x\(height) -> \(toWidth)x\(toHeight)")
        let columns = taps(from: width, to: toWidth)
        let rows = taps(from: height, to: toHeight)
        // Source rows interpolated across, each once: (row index, values) for the two rows in use.
        var upper = (index: -1, values: [Float](repeating: 0, count: toWidth))
        var lower = (index: -1, values: [Float](repeating: 0, count: toWidth))
        func across(_ row: Int, into target: inout [Float]) {
            values.withUnsafeBufferPointer { source in
                let base = row * width
                for x in 0..<toWidth {
                    let tap = columns[x]
                    target[x] = source[base + tap.first] + (source[base + tap.second] - source[base + tap.first]) * tap.weight
                }
            }
        }
        return [T](unsafeUninitializedCapacity: toWidth * toHeight) { output, initialized in
            for y in 0..<toHeight {
                let tap = rows[y]
                if upper.index != tap.first {
                    if lower.index == tap.first {
                        swap(&upper, &lower)
                    } else {
                        across(tap.first, into: &upper.values)
                        upper.index = tap.first
                    }
                }
                if lower.index != tap.second {
                    across(tap.second, into: &lower.values)
                    lower.index = tap.second
                }
                let weight = tap.weight
                upper.values.withUnsafeBufferPointer { top in
                    lower.values.withUnsafeBufferPointer { bottom in
                        for x in 0..<toWidth {
                            (output.baseAddress! + y * toWidth + x).initialize(to: convert(top[x] + (bottom[x] - top[x]) * weight))
                        }
                    }
                }
            }
            initialized = toWidth * toHeight
        }
    }

    /// For each output position along an axis: the two source positions it blends, and the weight of the second.
    static func taps(from source: Int, to target: Int) -> [(first: Int, second: Int, weight: Float)] {
        let scale = Float(source) / Float(target)
        return (0..<target).map { index in
            let position = min(Float(source - 1), max(0, (Float(index) + 0.5) * scale - 0.5))
            let first = Int(position)
            return (first, min(source - 1, first + 1), position - Float(first))
        }
    }
}
