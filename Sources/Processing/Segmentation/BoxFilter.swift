/// Mean over a (2r+1)² window for every pixel of a float plane, in O(pixels) whatever the radius
/// (separable running sums, accumulated in Double); windows are cut at the frame and divided by
/// their real area.
enum BoxFilter {
    static func mean(_ plane: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        precondition(plane.count == width * height && width > 0 && height > 0 && radius >= 0, "BoxFilter: bad sizes")
        // Across each row: window sums.
        var across = [Float](repeating: 0, count: plane.count)
        plane.withUnsafeBufferPointer { source in
            across.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = y * width
                    var sum: Double = 0
                    for x in 0...min(radius, width - 1) { sum += Double(source[row + x]) }
                    for x in 0..<width {
                        target[row + x] = Float(sum)
                        if x + radius + 1 < width { sum += Double(source[row + x + radius + 1]) }
                        if x - radius >= 0 { sum -= Double(source[row + x - radius]) }
                    }
                }
            }
        }
        // Down the columns, a row of running sums at a time; then divide by the window's area.
        let columnsIn = (0..<width).map { Double(min(width, $0 + radius + 1) - max(0, $0 - radius)) }
        var sums = [Double](repeating: 0, count: width)
        var result = [Float](repeating: 0, count: plane.count)
        across.withUnsafeBufferPointer { rows in
            sums.withUnsafeMutableBufferPointer { sums in
                result.withUnsafeMutableBufferPointer { result in
                    for y in 0...min(radius, height - 1) {
                        for x in 0..<width { sums[x] += Double(rows[y * width + x]) }
                    }
                    for y in 0..<height {
                        let rowsIn = Double(min(height, y + radius + 1) - max(0, y - radius))
                        for x in 0..<width { result[y * width + x] = Float(sums[x] / (rowsIn * columnsIn[x])) }
                        if y + radius + 1 < height {
                            let add = (y + radius + 1) * width
                            for x in 0..<width { sums[x] += Double(rows[add + x]) }
                        }
                        if y - radius >= 0 {
                            let drop = (y - radius) * width
                            for x in 0..<width { sums[x] -= Double(rows[drop + x]) }
                        }
                    }
                }
            }
        }
        return result
    }
}
