extension MaskCleanup {
    /// Which parts are strays: kept by size so far, yet smaller than `strayFraction` of the largest
    /// part, farther than `reachFraction` of its extent from every part that is not that small, and
    /// nowhere as sure as `strayPeak`. Such a part is a bit of the background the network
    /// half-believed in (a patch of grass beside a paw): its mask never gets near 255. A subject's
    /// own small pieces are either close to it (an umlaut's dots, a held cup) or as sure as the rest
    /// (the stones of a ruin, a car's light bar), and a second subject is not small. The reach
    /// follows the subject's size so the rule reads the same on a thumbnail and on a 12 MP photo.
    static func strayParts(
        of solid: RunComponents, mask: [UInt8], kept: [Bool], width: Int, height: Int,
        strayFraction: Double, reachFraction: Double, strayPeak: UInt8
    ) -> [Bool] {
        guard let largest = solid.areas.max(), largest > 0 else { return kept.map { _ in false } }
        var candidate = solid.areas.indices.map { kept[$0] && Double(solid.areas[$0]) < strayFraction * Double(largest) }
        guard candidate.contains(true) else { return candidate }

        // A part the network is sure of somewhere is no stray, however small and far.
        var peak = [UInt8](repeating: 0, count: solid.areas.count)
        for (index, run) in solid.runs.enumerated() {
            let part = Int(solid.componentOfRun[index])
            guard candidate[part] else { continue }
            let row = Int(run.y) * width
            for x in Int(run.start)..<Int(run.end) { peak[part] = max(peak[part], mask[row + x]) }
        }
        for part in candidate.indices where peak[part] >= strayPeak { candidate[part] = false }
        guard candidate.contains(true) else { return candidate }

        var anchor = [Bool](repeating: false, count: width * height)
        for (index, run) in solid.runs.enumerated() {
            let part = Int(solid.componentOfRun[index])
            guard kept[part] && Double(solid.areas[part]) >= strayFraction * Double(largest) else { continue }
            let row = Int(run.y) * width
            for x in Int(run.start)..<Int(run.end) { anchor[row + x] = true }
        }
        let distance = DistanceTransform.distances(toSet: anchor, width: width, height: height)
        var nearest = [Float](repeating: .infinity, count: solid.areas.count)
        for (index, run) in solid.runs.enumerated() {
            let part = Int(solid.componentOfRun[index])
            guard candidate[part] else { continue }
            let row = Int(run.y) * width
            for x in Int(run.start)..<Int(run.end) { nearest[part] = min(nearest[part], distance[row + x]) }
        }
        let reach = Float(reachFraction * Double(extent(ofLargestIn: solid)))
        return candidate.indices.map { candidate[$0] && nearest[$0] > reach }
    }

    /// The longer side of the largest part's bounding box (of the longest, should several be the
    /// largest): the subject's size as a person sees it, an outlined letter as large as a filled one.
    static func extent(ofLargestIn solid: RunComponents) -> Int {
        guard let largest = solid.areas.max() else { return 0 }
        var boxes = [(x0: Int32, x1: Int32, y0: Int32, y1: Int32)](repeating: (.max, .min, .max, .min), count: solid.areas.count)
        for (index, run) in solid.runs.enumerated() {
            let part = Int(solid.componentOfRun[index])
            guard solid.areas[part] == largest else { continue }
            boxes[part] = (min(boxes[part].x0, run.start), max(boxes[part].x1, run.end), min(boxes[part].y0, run.y), max(boxes[part].y1, run.y + 1))
        }
        return solid.areas.indices.filter { solid.areas[$0] == largest }.map { Int(max(boxes[$0].x1 - boxes[$0].x0, boxes[$0].y1 - boxes[$0].y0)) }.max() ?? 0
    }
}
