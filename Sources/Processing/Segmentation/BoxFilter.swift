/// Mean over a (2r+1)² window for every pixel of a float plane, in O(pixels) whatever the radius
/// (separable running sums, accumulated in Double); windows are cut at the frame and divided by
/// their real area.
///
/// `means` runs up to four planes side by side, streaming: planes come in a row at a time and
/// their means go out a row at a time, with only 2r + 2 rows of the pass across kept (in cache),
/// so a caller such as the guided filter fuses its per-pixel work into the passes instead of
/// allocating and re-reading a full plane for each of its six means. Each plane gets exactly the
/// same Double operations, in the same order, as when filtered alone.
enum BoxFilter {
    static func mean(_ plane: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        precondition(plane.count == width * height && width > 0 && height > 0 && radius >= 0, "BoxFilter: bad sizes")
        return [Float](unsafeUninitializedCapacity: plane.count) { result, initialized in
            plane.withUnsafeBufferPointer { plane in
                means(planes: 1, width: width, height: height, radius: radius) { y, row in
                    row.update(from: plane.baseAddress! + y * width, count: width)
                } emit: { y, means in
                    (result.baseAddress! + y * width).initialize(from: means, count: width)
                }
            }
            initialized = plane.count
        }
    }

    /// Box means of `planes` (1...4) planes. `fill(y, rows)` writes source row `y` of plane k at
    /// `rows + k * width`; it is called once per row, in order. `emit(y, means)` receives the
    /// means of row `y` in the same layout, in order, once `fill` has given every row it needs.
    static func means(
        planes: Int, width: Int, height: Int, radius: Int,
        fill: (_ y: Int, _ rows: UnsafeMutablePointer<Float>) -> Void,
        emit: (_ y: Int, _ means: UnsafePointer<Float>) -> Void
    ) {
        precondition((1...4).contains(planes) && width > 0 && height > 0 && radius >= 0, "BoxFilter: bad sizes")
        let stride = planes * width
        // Window sums across each row, for the 2r + 2 rows the column sums add and drop.
        let depth = min(2 * radius + 2, height)
        let across = UnsafeMutablePointer<Float>.allocate(capacity: depth * stride)
        let source = UnsafeMutablePointer<Float>.allocate(capacity: 4 * width)
        let columnSums = UnsafeMutablePointer<Double>.allocate(capacity: stride)
        let means = UnsafeMutablePointer<Float>.allocate(capacity: stride)
        let columnsIn = UnsafeMutablePointer<Double>.allocate(capacity: width)
        let areas = UnsafeMutablePointer<Double>.allocate(capacity: width)
        defer {
            across.deallocate()
            source.deallocate()
            columnSums.deallocate()
            means.deallocate()
            columnsIn.deallocate()
            areas.deallocate()
        }
        // Unused planes read zeros, so the pass across can always run four lanes.
        source.initialize(repeating: 0, count: 4 * width)
        columnSums.initialize(repeating: 0, count: stride)
        for x in 0..<width { columnsIn[x] = Double(min(width, x + radius + 1) - max(0, x - radius)) }

        /// Source row `y`, summed across into its slot of `across`.
        func sumAcross(_ y: Int) -> UnsafeMutablePointer<Float> {
            fill(y, source)
            let target = across + (y % depth) * stride
            windowSumsAcross(source, into: target, planes: planes, width: width, radius: radius)
            return target
        }

        for y in 0...min(radius, height - 1) {
            let row = sumAcross(y)
            for index in 0..<stride { columnSums[index] += Double(row[index]) }
        }
        for y in 0..<height {
            let rowsIn = Double(min(height, y + radius + 1) - max(0, y - radius))
            for x in 0..<width { areas[x] = rowsIn * columnsIn[x] }
            for plane in 0..<planes {
                let sums = columnSums + plane * width, target = means + plane * width
                for x in 0..<width { target[x] = Float(sums[x] / areas[x]) }
            }
            emit(y, means)
            if y + radius + 1 < height {
                let row = sumAcross(y + radius + 1)
                for index in 0..<stride { columnSums[index] += Double(row[index]) }
            }
            if y - radius >= 0 {
                let row = across + ((y - radius) % depth) * stride
                for index in 0..<stride { columnSums[index] -= Double(row[index]) }
            }
        }
    }

    /// Running window sums along one row of up to four planes at once: each plane's sum is a
    /// chain of dependent additions, so running four side by side (as SIMD lanes) hides the
    /// latency one chain alone would wait on.
    private static func windowSumsAcross(_ source: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>, planes: Int, width: Int, radius: Int) {
        let p0 = source, p1 = source + width, p2 = source + 2 * width, p3 = source + 3 * width
        @inline(__always) func lanes(_ x: Int) -> SIMD4<Double> {
            SIMD4(Double(p0[x]), Double(p1[x]), Double(p2[x]), Double(p3[x]))
        }
        var sum = SIMD4<Double>()
        for x in 0...min(radius, width - 1) { sum += lanes(x) }
        for x in 0..<width {
            target[x] = Float(sum[0])
            if planes > 1 { target[width + x] = Float(sum[1]) }
            if planes > 2 { target[2 * width + x] = Float(sum[2]) }
            if planes > 3 { target[3 * width + x] = Float(sum[3]) }
            if x + radius + 1 < width { sum += lanes(x + radius + 1) }
            if x - radius >= 0 { sum -= lanes(x - radius) }
        }
    }
}
