/// Exact Euclidean distance transform (Felzenszwalb & Huttenlocher, 2012): for every pixel, the
/// distance to the nearest pixel of a set, in O(pixels). Used to draw outlines of exact width.
enum DistanceTransform {
    /// Distance from each pixel to the nearest pixel where `inside` is true (0 on the set itself;
    /// a very large value everywhere when the set is empty).
    static func distances(toSet inside: [Bool], width: Int, height: Int) -> [Float] {
        let infinity: Float = 1e20
        var squared = inside.map { $0 ? Float(0) : infinity }
        let longest = max(width, height)
        var line = [Float](repeating: 0, count: longest)
        var output = [Float](repeating: 0, count: longest)
        var parabolaAt = [Int](repeating: 0, count: longest)
        var boundaries = [Float](repeating: 0, count: longest + 1)
        for x in 0..<width {
            for y in 0..<height { line[y] = squared[y * width + x] }
            transform1D(line, count: height, into: &output, parabolaAt: &parabolaAt, boundaries: &boundaries)
            for y in 0..<height { squared[y * width + x] = output[y] }
        }
        for y in 0..<height {
            for x in 0..<width { line[x] = squared[y * width + x] }
            transform1D(line, count: width, into: &output, parabolaAt: &parabolaAt, boundaries: &boundaries)
            for x in 0..<width { squared[y * width + x] = output[x] }
        }
        return squared.map { $0.squareRoot() }
    }

    /// The lower envelope of parabolas rooted at each sample: squared distances along one line.
    private static func transform1D(_ f: [Float], count n: Int, into d: inout [Float], parabolaAt v: inout [Int], boundaries z: inout [Float]) {
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
                    s = ((f[q] + Float(q * q)) - (f[p] + Float(p * p))) / Float(2 * (q - p))
                    if s <= z[k] { k -= 1 } else { break }
                } while k >= 0
                k += 1
                v[k] = q
                z[k] = s
                z[k + 1] = Float.infinity
            }
        }
        k = 0
        for q in 0..<n {
            while z[k + 1] < Float(q) { k += 1 }
            let offset = Float(q - v[k])
            d[q] = offset * offset + f[v[k]]
        }
    }
}
