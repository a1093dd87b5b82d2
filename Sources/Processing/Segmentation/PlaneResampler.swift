/// Bilinear resampling of one plane (a mask) with pixel centres aligned (half-pixel convention),
/// separable: each source row is interpolated across once, then each output row blends two of them.
enum PlaneResampler {
    /// `values` (`width * height`) resampled to `toWidth` x `toHeight`.
    static func bilinear(_ values: [Float], width: Int, height: Int, toWidth: Int, toHeight: Int) -> [Float] {
        [Float](unsafeUninitializedCapacity: toWidth * toHeight) { output, initialized in
            resample(values, width: width, height: height, toWidth: toWidth, toHeight: toHeight) { y, top, bottom, weight in
                let target = output.baseAddress! + y * toWidth
                for x in 0..<toWidth { target[x] = top[x] + (bottom[x] - top[x]) * weight }
            }
            initialized = toWidth * toHeight
        }
    }

    /// The same for bytes (0...255), rounded. A mask brought up to a 12 MP photo's size is 12 M
    /// of these, so the conversion is written to vectorise (a checked `UInt8(Float)` does not).
    static func bilinear(_ values: [UInt8], width: Int, height: Int, toWidth: Int, toHeight: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: toWidth * toHeight) { output, initialized in
            resample(values.map(Float.init), width: width, height: height, toWidth: toWidth, toHeight: toHeight) { y, top, bottom, weight in
                let target = output.baseAddress! + y * toWidth
                for x in 0..<toWidth { target[x] = truncatedByte(top[x] + (bottom[x] - top[x]) * weight + 0.5) }
            }
            initialized = toWidth * toHeight
        }
    }

    /// `UInt8(min(255, max(0, value)))` without the trap check: adding 1.5 * 2^23 rounds to the
    /// nearest integer (which lands in the low mantissa bits), one less when that rounded up.
    @inline(__always)
    private static func truncatedByte(_ value: Float) -> UInt8 {
        let magic: Float = 12_582_912
        let clamped = min(255, max(0, value))
        let nearest = (clamped + magic) - magic
        let floor = nearest > clamped ? nearest - 1 : nearest
        return UInt8(truncatingIfNeeded: (floor + magic).bitPattern)
    }

    /// Calls `blend` once per output row with the two source rows (already interpolated across)
    /// it lies between and the weight of the lower one; each source row is interpolated once.
    private static func resample(
        _ values: [Float], width: Int, height: Int, toWidth: Int, toHeight: Int,
        blend: (_ y: Int, _ top: UnsafePointer<Float>, _ bottom: UnsafePointer<Float>, _ weight: Float) -> Void
    ) {
        precondition(values.count == width * height && width > 0 && height > 0 && toWidth > 0 && toHeight > 0,
                     "PlaneResampler: \(values.count) values for \(width)x\(height) -> \(toWidth)x\(toHeight)")
        let columns = taps(from: width, to: toWidth)
        let rows = taps(from: height, to: toHeight)
        // The two source rows in use, interpolated across: (source row index, values).
        let upperRow = UnsafeMutablePointer<Float>.allocate(capacity: toWidth)
        let lowerRow = UnsafeMutablePointer<Float>.allocate(capacity: toWidth)
        defer {
            upperRow.deallocate()
            lowerRow.deallocate()
        }
        var upper = (index: -1, values: upperRow), lower = (index: -1, values: lowerRow)
        values.withUnsafeBufferPointer { source in
            columns.withUnsafeBufferPointer { columns in
                func across(_ row: Int, into target: UnsafeMutablePointer<Float>) {
                    let base = source.baseAddress! + row * width
                    for x in 0..<toWidth {
                        let tap = columns[x]
                        target[x] = base[tap.first] + (base[tap.second] - base[tap.first]) * tap.weight
                    }
                }
                for y in 0..<toHeight {
                    let tap = rows[y]
                    if upper.index != tap.first {
                        if lower.index == tap.first {
                            swap(&upper, &lower)
                        } else {
                            across(tap.first, into: upper.values)
                            upper.index = tap.first
                        }
                    }
                    if lower.index != tap.second {
                        across(tap.second, into: lower.values)
                        lower.index = tap.second
                    }
                    blend(y, upper.values, lower.values, tap.weight)
                }
            }
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
