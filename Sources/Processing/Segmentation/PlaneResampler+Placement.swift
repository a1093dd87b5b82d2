extension PlaneResampler {
    /// A plane that covers only part of a frame (the network's mask of a crop) brought into the
    /// whole frame of `toWidth` x `toHeight`: bilinear with pixel centres aligned, as `bilinear`,
    /// inside `region` (in the frame's pixels, fractional where the crop's scale differs) and 0
    /// outside. With `region` the whole frame it samples where `bilinear` does.
    static func placed(
        _ values: [Float], width: Int, height: Int,
        in region: (x0: Double, y0: Double, x1: Double, y1: Double), toWidth: Int, toHeight: Int
    ) -> [Float] {
        precondition(values.count == width * height && width > 0 && height > 0, "PlaneResampler.placed: \(values.count) values for \(width)x\(height)")
        let columns = regionTaps(from: width, start: region.x0, end: region.x1, count: toWidth)
        let rows = regionTaps(from: height, start: region.y0, end: region.y1, count: toHeight)
        var result = [Float](repeating: 0, count: toWidth * toHeight)
        values.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { result in
                for (y, row) in rows.enumerated() {
                    guard let row else { continue }
                    let top = source.baseAddress! + row.first * width, bottom = source.baseAddress! + row.second * width
                    for (x, column) in columns.enumerated() {
                        guard let column else { continue }
                        let upper = top[column.first] + (top[column.second] - top[column.first]) * column.weight
                        let lower = bottom[column.first] + (bottom[column.second] - bottom[column.first]) * column.weight
                        result[y * toWidth + x] = upper + (lower - upper) * row.weight
                    }
                }
            }
        }
        return result
    }

    /// For each of `count` frame positions: nil outside `start..<end`, else the two of `source`
    /// positions (spread over `start..<end`) it blends and the weight of the second.
    private static func regionTaps(from source: Int, start: Double, end: Double, count: Int) -> [(first: Int, second: Int, weight: Float)?] {
        let scale = Double(source) / (end - start)
        return (0..<count).map { index in
            let centre = Double(index) + 0.5
            guard centre >= start && centre < end else { return nil }
            let position = Float(min(Double(source - 1), max(0, (centre - start) * scale - 0.5)))
            let first = Int(position)
            return (first, min(source - 1, first + 1), position - Float(first))
        }
    }
}
