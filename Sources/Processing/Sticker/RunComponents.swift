/// Connected components of the pixels of a one-byte mask on one side of a threshold, found on
/// runs (horizontal spans) with union-find rather than pixel by pixel: a cut-out mask is a few
/// large regions, so a 1024 x 768 mask has some thousands of runs against 786 432 pixels, and
/// labelling costs little more than one scan of the bytes.
struct RunComponents {
    /// A horizontal span `start..<end` of selected pixels on row `y`.
    struct Run {
        var y: Int32
        var start: Int32
        var end: Int32
    }

    /// Every run, row by row, left to right.
    private(set) var runs: [Run] = []
    /// The component (0..<areas.count) of each run.
    private(set) var componentOfRun: [Int32] = []
    /// Each component's area in pixels.
    private(set) var areas: [Int] = []

    /// The components of the pixels whose value is `>= threshold` (or `< threshold` when
    /// `below`), joined through their 8 neighbours (or only 4).
    init(_ mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, threshold: UInt8, below: Bool, eightConnected: Bool) {
        precondition(mask.count == width * height, "RunComponents: mask size does not match \(width)x\(height)")
        var parent: [Int32] = []
        // With 8-connectivity runs that only touch diagonally are joined too.
        let reach: Int32 = eightConnected ? 1 : 0
        var previousRow = 0..<0
        for y in 0..<height {
            let rowStart = runs.count
            let row = mask.baseAddress! + y * width
            var x = 0
            while x < width {
                while x < width && (row[x] < threshold) != below { x += 1 }
                guard x < width else { break }
                let start = x
                while x < width && (row[x] < threshold) == below { x += 1 }
                runs.append(Run(y: Int32(y), start: Int32(start), end: Int32(x)))
                parent.append(Int32(parent.count))
            }
            // Join each new run with the runs above it that it touches (both lists are sorted).
            var above = previousRow.lowerBound
            for index in rowStart..<runs.count {
                let run = runs[index]
                while above < previousRow.upperBound && runs[above].end + reach <= run.start { above += 1 }
                var candidate = above
                while candidate < previousRow.upperBound && runs[candidate].start < run.end + reach {
                    Self.union(Int32(index), Int32(candidate), in: &parent)
                    candidate += 1
                }
            }
            previousRow = rowStart..<runs.count
        }
        // Number the roots 0, 1, ... and sum their areas.
        var component = [Int32](repeating: -1, count: runs.count)
        componentOfRun = [Int32](repeating: 0, count: runs.count)
        for index in runs.indices {
            let root = Int(Self.find(Int32(index), in: &parent))
            if component[root] < 0 {
                component[root] = Int32(areas.count)
                areas.append(0)
            }
            let label = component[root]
            componentOfRun[index] = label
            areas[Int(label)] += Int(runs[index].end - runs[index].start)
        }
    }

    private static func find(_ node: Int32, in parent: inout [Int32]) -> Int32 {
        var root = node
        while parent[Int(root)] != root { root = parent[Int(root)] }
        var current = node
        while parent[Int(current)] != root {
            let next = parent[Int(current)]
            parent[Int(current)] = root
            current = next
        }
        return root
    }

    private static func union(_ a: Int32, _ b: Int32, in parent: inout [Int32]) {
        let rootA = find(a, in: &parent), rootB = find(b, in: &parent)
        if rootA != rootB { parent[Int(max(rootA, rootB))] = min(rootA, rootB) }
    }
}
