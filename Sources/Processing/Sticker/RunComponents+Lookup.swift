extension RunComponents {
    /// The component holding pixel (`x`, `y`), or nil when that pixel was not selected.
    /// Runs are sorted by row, then by start: a binary search finds the row's first run.
    func component(atX x: Int, y: Int) -> Int? {
        var low = 0, high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if Int(runs[middle].y) < y { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < runs.count, Int(runs[index].y) == y {
            let run = runs[index]
            if Int(run.start) <= x && x < Int(run.end) { return Int(componentOfRun[index]) }
            if Int(run.start) > x { return nil }
            index += 1
        }
        return nil
    }

    /// Calls `body` with the row and the column range of every run of `component`.
    func forEachRun(of component: Int, _ body: (_ y: Int, _ columns: Range<Int>) -> Void) {
        for (index, run) in runs.enumerated() where Int(componentOfRun[index]) == component {
            body(Int(run.y), Int(run.start)..<Int(run.end))
        }
    }
}
