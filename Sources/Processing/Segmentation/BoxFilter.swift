/// Mean over a (2r+1)² window for every pixel of a float plane, in O(pixels) whatever the radius
/// (summed-area table); windows are cut at the frame and divided by their real area.
enum BoxFilter {
    static func mean(_ plane: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        let stride = width + 1
        var table = [Double](repeating: 0, count: stride * (height + 1))
        for y in 0..<height {
            var rowSum: Double = 0
            for x in 0..<width {
                rowSum += Double(plane[y * width + x])
                table[(y + 1) * stride + x + 1] = table[y * stride + x + 1] + rowSum
            }
        }
        var result = [Float](repeating: 0, count: plane.count)
        for y in 0..<height {
            let y0 = max(0, y - radius), y1 = min(height, y + radius + 1)
            for x in 0..<width {
                let x0 = max(0, x - radius), x1 = min(width, x + radius + 1)
                let sum = table[y1 * stride + x1] - table[y0 * stride + x1] - table[y1 * stride + x0] + table[y0 * stride + x0]
                result[y * width + x] = Float(sum / Double((x1 - x0) * (y1 - y0)))
            }
        }
        return result
    }
}
