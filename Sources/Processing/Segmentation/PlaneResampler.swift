import CSegmentationKernels

/// Bilinear resampling of one plane (a mask) with pixel centres aligned (half-pixel convention),
/// separable: each source row is interpolated across once, then each output row blends two of them.
enum PlaneResampler {
    /// `values` (`width * height`) resampled to `toWidth` x `toHeight`.
    static func bilinear(_ values: [Float], width: Int, height: Int, toWidth: Int, toHeight: Int) -> [Float] {
        let rows = Rows(values, width: width, height: height, toWidth: toWidth, toHeight: toHeight)
        return [Float](unsafeUninitializedCapacity: toWidth * toHeight) { output, initialized in
            for y in 0..<toHeight { rows.blend(row: y, into: output.baseAddress! + y * toWidth) }
            initialized = toWidth * toHeight
        }
    }

    /// The same for bytes (0...255), rounded.
    static func bilinear(_ values: [UInt8], width: Int, height: Int, toWidth: Int, toHeight: Int) -> [UInt8] {
        let rows = Rows(values.map(Float.init), width: width, height: height, toWidth: toWidth, toHeight: toHeight)
        return [UInt8](unsafeUninitializedCapacity: toWidth * toHeight) { output, initialized in
            for y in 0..<toHeight { rows.blendBytes(row: y, into: output.baseAddress! + y * toWidth) }
            initialized = toWidth * toHeight
        }
    }

    /// The resampled plane one output row at a time, so a large one (a mask brought up to a 12 MP
    /// photo's size for its PNG) need never exist whole. Rows are cheapest asked for top to
    /// bottom: the two source rows in use are kept, each interpolated across once.
    final class Rows {
        let toWidth: Int
        private let values: [Float]
        private let width: Int
        private let columns: [(first: Int, second: Int, weight: Float)]
        private let rowTaps: [(first: Int, second: Int, weight: Float)]
        private var upper: (index: Int, values: UnsafeMutablePointer<Float>)
        private var lower: (index: Int, values: UnsafeMutablePointer<Float>)

        init(_ values: [Float], width: Int, height: Int, toWidth: Int, toHeight: Int) {
            precondition(values.count == width * height && width > 0 && height > 0 && toWidth > 0 && toHeight > 0,
                         "PlaneResampler: \(values.count) values for \(width)x\(height) -> \(toWidth)x\(toHeight)")
            self.values = values
            self.width = width
            self.toWidth = toWidth
            columns = PlaneResampler.taps(from: width, to: toWidth)
            rowTaps = PlaneResampler.taps(from: height, to: toHeight)
            upper = (-1, .allocate(capacity: toWidth))
            lower = (-1, .allocate(capacity: toWidth))
        }

        deinit {
            upper.values.deallocate()
            lower.values.deallocate()
        }

        /// Output row `y` (`toWidth` floats) into `target`.
        func blend(row y: Int, into target: UnsafeMutablePointer<Float>) {
            let (top, bottom, weight) = sources(of: y)
            for x in 0..<toWidth { target[x] = top[x] + (bottom[x] - top[x]) * weight }
        }

        /// Output row `y` as bytes, rounded as `UInt8(min(255, max(0, value + 0.5)))` would (a mask
        /// brought up to 12 MP is 12 M of these: the loop is C's, which vectorises).
        func blendBytes(row y: Int, into target: UnsafeMutablePointer<UInt8>) {
            let (top, bottom, weight) = sources(of: y)
            sk_blend_rows_to_bytes(top, bottom, weight, Int32(toWidth), target)
        }

        /// The two source rows (interpolated across) output row `y` lies between, and the weight of the lower one.
        private func sources(of y: Int) -> (UnsafePointer<Float>, UnsafePointer<Float>, Float) {
            let tap = rowTaps[y]
            if upper.index != tap.first {
                if lower.index == tap.first {
                    swap(&upper, &lower)
                } else {
                    interpolateAcross(tap.first, into: upper.values)
                    upper.index = tap.first
                }
            }
            if lower.index != tap.second {
                interpolateAcross(tap.second, into: lower.values)
                lower.index = tap.second
            }
            return (UnsafePointer(upper.values), UnsafePointer(lower.values), tap.weight)
        }

        private func interpolateAcross(_ row: Int, into target: UnsafeMutablePointer<Float>) {
            values.withUnsafeBufferPointer { source in
                columns.withUnsafeBufferPointer { columns in
                    let base = source.baseAddress! + row * width
                    for x in 0..<toWidth {
                        let tap = columns[x]
                        target[x] = base[tap.first] + (base[tap.second] - base[tap.first]) * tap.weight
                    }
                }
            }
        }
    }

    /// For each output position along an axis: the two source positions it blends, and the weight of the second.
    private static func taps(from source: Int, to target: Int) -> [(first: Int, second: Int, weight: Float)] {
        let scale = Float(source) / Float(target)
        return (0..<target).map { index in
            let position = min(Float(source - 1), max(0, (Float(index) + 0.5) * scale - 0.5))
            let first = Int(position)
            return (first, min(source - 1, first + 1), position - Float(first))
        }
    }
}
