import CSegmentationKernels

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
    /// With `wanted`, only row `y`'s columns `wanted[y]` are worked out (the rest of `means` is left
    /// as it was) and only rows with some are emitted; rows above the last of those are all filled
    /// (the running sums read them), rows only its window's reach below it, the others not at all.
    static func means(
        planes: Int, width: Int, height: Int, radius: Int, wanted: [Range<Int>]? = nil,
        fill: (_ y: Int, _ rows: UnsafeMutablePointer<Float>) -> Void,
        emit: (_ y: Int, _ means: UnsafePointer<Float>) -> Void
    ) {
        precondition((1...8).contains(planes) && width > 0 && height > 0 && radius >= 0, "BoxFilter: bad sizes")
        precondition(wanted.map { $0.count == height && $0.allSatisfy { $0.isEmpty || ($0.lowerBound >= 0 && $0.upperBound <= width) } } ?? true,
                     "BoxFilter: `wanted` needs one range of columns a row")
        // The sums keep the planes interleaved, four or eight lanes a column, so the C row steps
        // (sk_box_*) run the planes as SIMD lanes; `fill` and `emit` see planar rows.
        let lanes = planes > 4 ? 8 : 4
        let stride = lanes * width
        // Window sums across each row, for the 2r + 2 rows the column sums add and drop.
        let depth = min(2 * radius + 2, height)
        let across = UnsafeMutablePointer<Float>.allocate(capacity: depth * stride)
        let source = UnsafeMutablePointer<Float>.allocate(capacity: planes * width)
        let interleaved = UnsafeMutablePointer<Float>.allocate(capacity: stride)
        let columnSums = UnsafeMutablePointer<Double>.allocate(capacity: stride)
        let means = UnsafeMutablePointer<Float>.allocate(capacity: planes * width)
        let columnsIn = UnsafeMutablePointer<Double>.allocate(capacity: width)
        defer {
            across.deallocate()
            source.deallocate()
            interleaved.deallocate()
            columnSums.deallocate()
            means.deallocate()
            columnsIn.deallocate()
        }
        // Unused lanes read zeros.
        interleaved.initialize(repeating: 0, count: stride)
        columnSums.initialize(repeating: 0, count: stride)
        for x in 0..<width { columnsIn[x] = Double(min(width, x + radius + 1) - max(0, x - radius)) }

        /// Source row `y`, summed across into its slot of `across`.
        func sumAcross(_ y: Int) -> UnsafeMutablePointer<Float> {
            fill(y, source)
            let target = across + (y % depth) * stride
            sk_box_sums_across(source, Int32(planes), Int32(lanes), Int32(width), Int32(radius), interleaved, target)
            return target
        }

        for y in 0...min(radius, height - 1) {
            sk_box_column_update(columnSums, sumAcross(y), nil, stride)
        }
        // Rows below the last wanted one are never read.
        let end = wanted.map { wanted in (wanted.lastIndex { !$0.isEmpty } ?? -1) + 1 } ?? height
        for y in 0..<end {
            let columns = wanted?[y] ?? 0..<width
            if !columns.isEmpty {
                let rowsIn = Double(min(height, y + radius + 1) - max(0, y - radius))
                sk_box_means(columnSums, Int32(planes), Int32(lanes), Int32(width), Int32(columns.lowerBound), Int32(columns.upperBound),
                             rowsIn, columnsIn, means)
                emit(y, means)
            }
            guard y + 1 < end else { break }
            // Adding the entering row, then subtracting the leaving one, element by element.
            let entering = y + radius + 1 < height ? sumAcross(y + radius + 1) : nil
            let leaving = y - radius >= 0 ? across + ((y - radius) % depth) * stride : nil
            sk_box_column_update(columnSums, entering, leaving, stride)
        }
    }
}
