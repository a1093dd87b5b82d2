/// Mean over a (2r+1)² window for every pixel of a float plane, in O(pixels) whatever the radius
/// (separable running sums, accumulated in Double); windows are cut at the frame and divided by
/// their real area.
///
/// `means` runs up to eight planes side by side, streaming: planes come in a row at a time and
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

    /// Box means of `planes` (1...8) planes. `fill(y, rows)` writes source row `y` of plane k at
    /// `rows + k * width`; it is called once per row, in order. `emit(y, means)` receives the
    /// means of row `y` in the same layout, in order, once `fill` has given every row it needs.
    /// With `wanted`, only the rows `y` with `wanted[y]` are worked out and emitted (every row is
    /// still filled: the others' windows read it).
    static func means(
        planes: Int, width: Int, height: Int, radius: Int, wanted: [Bool]? = nil,
        fill: (_ y: Int, _ rows: UnsafeMutablePointer<Float>) -> Void,
        emit: (_ y: Int, _ means: UnsafePointer<Float>) -> Void
    ) {
        precondition((1...8).contains(planes) && width > 0 && height > 0 && radius >= 0, "BoxFilter: bad sizes")
        precondition(wanted.map { $0.count == height } ?? true, "BoxFilter: `wanted` needs one flag a row")
        let stride = planes * width
        // Window sums across each row, for the 2r + 2 rows the column sums add and drop.
        let depth = min(2 * radius + 2, height)
        let across = UnsafeMutablePointer<Float>.allocate(capacity: depth * stride)
        let lanes = planes > 4 ? 8 : 4
        let source = UnsafeMutablePointer<Float>.allocate(capacity: lanes * width)
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
        // Unused planes read zeros, so the pass across can always run four (or eight) lanes.
        source.initialize(repeating: 0, count: lanes * width)
        columnSums.initialize(repeating: 0, count: stride)
        for x in 0..<width { columnsIn[x] = Double(min(width, x + radius + 1) - max(0, x - radius)) }

        /// Source row `y`, summed across into its slot of `across`.
        func sumAcross(_ y: Int) -> UnsafeMutablePointer<Float> {
            fill(y, source)
            let target = across + (y % depth) * stride
            if planes > 4 {
                windowSumsAcross8(source, into: target, planes: planes, width: width, radius: radius)
            } else {
                windowSumsAcross(source, into: target, planes: planes, width: width, radius: radius)
            }
            return target
        }

        for y in 0...min(radius, height - 1) {
            let row = sumAcross(y)
            for index in 0..<stride { columnSums[index] += Double(row[index]) }
        }
        for y in 0..<height {
            if wanted?[y] ?? true {
                let rowsIn = Double(min(height, y + radius + 1) - max(0, y - radius))
                for x in 0..<width { areas[x] = rowsIn * columnsIn[x] }
                for plane in 0..<planes {
                    let sums = columnSums + plane * width, target = means + plane * width
                    for x in 0..<width { target[x] = Float(sums[x] / areas[x]) }
                }
                emit(y, means)
            }
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
        runningSums(width: width, radius: radius) { x in
            SIMD4(Double(p0[x]), Double(p1[x]), Double(p2[x]), Double(p3[x]))
        } store: { x, sum in
            target[x] = Float(sum[0])
            if planes > 1 { target[width &+ x] = Float(sum[1]) }
            if planes > 2 { target[2 &* width &+ x] = Float(sum[2]) }
            if planes > 3 { target[3 &* width &+ x] = Float(sum[3]) }
        }
    }

    /// `windowSumsAcross` for five to eight planes: eight chains side by side, twice the
    /// independent work per step, so the pass across costs less than two calls of four planes.
    private static func windowSumsAcross8(_ source: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>, planes: Int, width: Int, radius: Int) {
        runningSums(width: width, radius: radius) { x in
            SIMD8(Double(source[x]), Double(source[width &+ x]), Double(source[2 &* width &+ x]), Double(source[3 &* width &+ x]),
                  Double(source[4 &* width &+ x]), Double(source[5 &* width &+ x]), Double(source[6 &* width &+ x]), Double(source[7 &* width &+ x]))
        } store: { x, sum in
            target[x] = Float(sum[0])
            target[width &+ x] = Float(sum[1])
            target[2 &* width &+ x] = Float(sum[2])
            target[3 &* width &+ x] = Float(sum[3])
            target[4 &* width &+ x] = Float(sum[4])
            if planes > 5 { target[5 &* width &+ x] = Float(sum[5]) }
            if planes > 6 { target[6 &* width &+ x] = Float(sum[6]) }
            if planes > 7 { target[7 &* width &+ x] = Float(sum[7]) }
        }
    }

    /// The window sums along a row, `store(x, sum)` for every x in order: the sum of columns
    /// `x - r ... x + r` (cut at the frame), kept running by adding the column entering on the
    /// right after each store and then subtracting the one leaving on the left. The loop is split
    /// where those two steps start and stop, so the steady part runs without a test per column;
    /// each sum sees the same additions and subtractions, in the same order, as one loop would.
    @inline(__always)
    private static func runningSums<Lanes: SIMD>(
        width: Int, radius: Int, load: (Int) -> Lanes, store: (Int, Lanes) -> Void
    ) where Lanes.Scalar == Double {
        var sum = Lanes()
        for x in 0...min(radius, width - 1) { sum += load(x) }
        // Column x adds x + r + 1 while x < entering; subtracts x - r once x >= radius.
        let entering = max(0, width - radius - 1)
        let first = min(entering, radius, width), second = min(max(entering, radius), width)
        var x = 0
        while x < first {
            store(x, sum)
            sum += load(x &+ radius &+ 1)
            x &+= 1
        }
        if entering <= radius {
            while x < second {
                store(x, sum)
                x &+= 1
            }
        } else {
            while x < second {
                store(x, sum)
                sum += load(x &+ radius &+ 1)
                sum -= load(x &- radius)
                x &+= 1
            }
        }
        while x < width {
            store(x, sum)
            sum -= load(x &- radius)
            x &+= 1
        }
    }
}
