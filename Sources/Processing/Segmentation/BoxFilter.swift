import CSegmentationKernels

/// Mean over a (2r+1)² window for every pixel of a float plane, in O(pixels) whatever the radius
/// (separable running sums, accumulated in Double); windows are cut at the frame and divided by
/// their real area.
///
/// `means` (and `BoxFilter.Stream`, which it drives) runs up to eight planes side by side,
/// streaming: planes come in a row at a time and their means go out a row at a time, with only
/// 2r + 3 rows of the pass across kept (in cache), so a caller such as the guided filter fuses its
/// per-pixel work into the passes, and one pass's rows into the next, instead of allocating and
/// re-reading full planes. Each plane gets exactly the same Double operations, in the same order,
/// as when filtered alone.
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
        let stream = Stream(planes: planes, width: width, height: height, radius: radius, wanted: wanted)
        for y in 0..<stream.rowsNeeded {
            fill(y, stream.row)
            stream.push(emit: emit)
        }
        stream.finish(emit: emit)
    }

    /// `means` driven by the caller: it writes each row at `row` and calls `push`, in order, for
    /// the first `rowsNeeded` rows, then `finish`; `emit` gets the means as in `means`, each row as
    /// soon as the rows its window needs are in. One pass's `emit` can so push into the next pass.
    final class Stream {
        let planes, width, height, radius: Int
        /// How many rows (from the top) must be pushed.
        let rowsNeeded: Int
        /// Where the next row's planes go (plane k at `row + k * width`) before `push`. It
        /// alternates between two buffers, so read it afresh for every row.
        private(set) var row: UnsafeMutablePointer<Float>
        private let wanted: [Range<Int>]?
        /// One past the last row emitted.
        private let end: Int
        private let lanes, stride, depth: Int
        private let across, interleaved, means, rowBuffers: UnsafeMutablePointer<Float>
        /// A pushed row whose window sums wait for the next row's, to be worked out with them.
        private var waiting: UnsafeMutablePointer<Float>?
        private let columnSums, columnsIn: UnsafeMutablePointer<Double>
        private var pushed = 0, next = 0

        init(planes: Int, width: Int, height: Int, radius: Int, wanted: [Range<Int>]? = nil) {
            precondition((1...8).contains(planes) && width > 0 && height > 0 && radius >= 0, "BoxFilter: bad sizes")
            precondition(wanted.map { $0.count == height && $0.allSatisfy { $0.isEmpty || ($0.lowerBound >= 0 && $0.upperBound <= width) } } ?? true,
                         "BoxFilter: `wanted` needs one range of columns a row")
            (self.planes, self.width, self.height, self.radius, self.wanted) = (planes, width, height, radius, wanted)
            // Rows below the last wanted one are never read.
            end = wanted.map { wanted in (wanted.lastIndex { !$0.isEmpty } ?? -1) + 1 } ?? height
            rowsNeeded = end == 0 ? 0 : min(height, end + radius)
            // The sums keep the planes interleaved, four or eight lanes a column, so the C row steps
            // (sk_box_*) run the planes as SIMD lanes; `row` and the means are planar.
            lanes = planes > 4 ? 8 : 4
            stride = lanes * width
            // Window sums across each row, for the 2r + 2 rows the column sums add and drop, and
            // one more: a row's sums are made together with the next one's, before the older
            // row leaves the column sums.
            depth = min(2 * radius + 3, height)
            across = .allocate(capacity: depth * stride)
            rowBuffers = .allocate(capacity: 2 * planes * width)
            row = rowBuffers
            interleaved = .allocate(capacity: 2 * stride)
            means = .allocate(capacity: planes * width)
            columnSums = .allocate(capacity: stride)
            columnsIn = .allocate(capacity: width)
            // Unused lanes read zeros.
            interleaved.initialize(repeating: 0, count: 2 * stride)
            columnSums.initialize(repeating: 0, count: stride)
            for x in 0..<width { columnsIn[x] = Double(min(width, x + radius + 1) - max(0, x - radius)) }
        }

        deinit {
            across.deallocate()
            rowBuffers.deallocate()
            interleaved.deallocate()
            means.deallocate()
            columnSums.deallocate()
            columnsIn.deallocate()
        }

        /// Takes the row at `row` as the next one, and emits the rows whose windows it completes.
        /// The column sums see what `means` always did: rows 0...r added, then after each row y is
        /// emitted, row y + r + 1 added and row y - r subtracted, element by element. Rows' window
        /// sums are worked out two at a time (the second push of a pair does both), which changes
        /// when rows are emitted, never their order or their values.
        func push(emit: (_ y: Int, _ means: UnsafePointer<Float>) -> Void) {
            precondition(pushed < rowsNeeded, "BoxFilter.Stream: more rows pushed than needed")
            let k = pushed
            pushed += 1
            if let first = waiting {
                waiting = nil
                sk_box_sums_across_pair(first, row, Int32(planes), Int32(lanes), Int32(width), Int32(radius),
                                        interleaved, interleaved + stride, slot(k - 1), slot(k))
                row = first
                addToColumns(k - 1, emit: emit)
                addToColumns(k, emit: emit)
            } else if k + 1 < rowsNeeded {
                waiting = row
                row = row == rowBuffers ? rowBuffers + planes * width : rowBuffers
            } else {
                sk_box_sums_across(row, Int32(planes), Int32(lanes), Int32(width), Int32(radius), interleaved, slot(k))
                addToColumns(k, emit: emit)
            }
        }

        /// Where row k's window sums go.
        private func slot(_ k: Int) -> UnsafeMutablePointer<Float> { across + (k % depth) * stride }

        /// Row k's window sums into the column sums, and the row whose window that completes out.
        private func addToColumns(_ k: Int, emit: (_ y: Int, _ means: UnsafePointer<Float>) -> Void) {
            if k <= radius {
                sk_box_column_update(columnSums, slot(k), nil, stride)
                if k == min(radius, height - 1) { emitNext(emit) }
            } else {
                let y = k - radius - 1
                sk_box_column_update(columnSums, slot(k), y >= radius ? slot(y - radius) : nil, stride)
                emitNext(emit)
            }
        }

        /// Emits the rows left once every needed row is in.
        func finish(emit: (_ y: Int, _ means: UnsafePointer<Float>) -> Void) {
            precondition(pushed == rowsNeeded, "BoxFilter.Stream: finished before every needed row was pushed")
            while next < end {
                let y = next - 1
                if y >= radius { sk_box_column_update(columnSums, nil, slot(y - radius), stride) }
                emitNext(emit)
            }
        }

        private func emitNext(_ emit: (_ y: Int, _ means: UnsafePointer<Float>) -> Void) {
            let y = next
            next += 1
            guard y < end else { return }
            let columns = wanted?[y] ?? 0..<width
            guard !columns.isEmpty else { return }
            let rowsIn = Double(min(height, y + radius + 1) - max(0, y - radius))
            sk_box_means(columnSums, Int32(planes), Int32(lanes), Int32(width), Int32(columns.lowerBound), Int32(columns.upperBound),
                         rowsIn, columnsIn, means)
            emit(y, means)
        }
    }
}
