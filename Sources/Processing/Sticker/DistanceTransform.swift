/// Exact Euclidean distance transform (Felzenszwalb & Huttenlocher, 2012): for every pixel, the
/// distance to the nearest pixel of a set, in O(pixels). Used to draw outlines of exact width.
enum DistanceTransform {
    /// Distance from each pixel to the nearest pixel where `inside` is true (0 on the set itself;
    /// a very large value everywhere when the set is empty).
    static func distances(toSet inside: [Bool], width: Int, height: Int) -> [Float] {
        let infinity: Float = 1e20
        let longest = max(width, height)
        // Per line: its squared distances in, out, the parabolas' roots and their boundaries.
        let line = UnsafeMutablePointer<Float>.allocate(capacity: 2 * longest + 1)
        let parabolaAt = UnsafeMutablePointer<Int>.allocate(capacity: longest)
        defer {
            line.deallocate()
            parabolaAt.deallocate()
        }
        let output = line + longest
        let boundaries = UnsafeMutablePointer<Float>.allocate(capacity: longest + 1)
        defer { boundaries.deallocate() }
        return [Float](unsafeUninitializedCapacity: width * height) { squared, initialized in
            let squared = squared.baseAddress!
            // Down the columns, the set's pixels are all at 0 and the rest at infinity, so each
            // pixel's squared distance is the square of the distance to the nearest set pixel in
            // its column: two sweeps, a row at a time (the envelope of parabolas gives the same
            // floats, but walks each column with a whole row's stride between reads).
            inside.withUnsafeBufferPointer { inside in
                for y in 0..<height {
                    let row = squared + y &* width, set = inside.baseAddress! + y &* width
                    if y == 0 {
                        for x in 0..<width { row[x] = set[x] ? 0 : infinity }
                    } else {
                        let above = row - width
                        for x in 0..<width { row[x] = set[x] ? 0 : min(above[x] + 1, infinity) }
                    }
                }
            }
            if height > 1 {
                for y in stride(from: height - 2, through: 0, by: -1) {
                    let row = squared + y &* width, below = row + width
                    for x in 0..<width { row[x] = min(row[x], below[x] + 1) }
                }
            }
            for index in 0..<(width * height) {
                let distance = squared[index]
                squared[index] = distance < infinity ? distance * distance : infinity
            }
            for y in 0..<height {
                let row = squared + y * width
                line.update(from: row, count: width)
                transform1D(line, count: width, into: output, parabolaAt: parabolaAt, boundaries: boundaries)
                for x in 0..<width { row[x] = output[x].squareRoot() }
            }
            initialized = width * height
        }
    }

    /// The lower envelope of parabolas rooted at each sample: squared distances along one line.
    private static func transform1D(
        _ f: UnsafePointer<Float>, count n: Int, into d: UnsafeMutablePointer<Float>,
        parabolaAt v: UnsafeMutablePointer<Int>, boundaries z: UnsafeMutablePointer<Float>
    ) {
        guard n > 0 else { return }
        var k = 0
        v[0] = 0
        z[0] = -Float.infinity
        z[1] = Float.infinity
        if n > 1 {
            for q in 1..<n {
                var s: Float
                repeat {
                    let p = v[k]
                    s = ((f[q] + Float(q &* q)) - (f[p] + Float(p &* p))) / Float(2 &* (q &- p))
                    if s <= z[k] { k &-= 1 } else { break }
                } while k >= 0
                k &+= 1
                v[k] = q
                z[k] = s
                z[k &+ 1] = Float.infinity
            }
        }
        k = 0
        for q in 0..<n {
            while z[k &+ 1] < Float(q) { k &+= 1 }
            let offset = Float(q &- v[k])
            d[q] = offset * offset + f[v[k]]
        }
    }
}
