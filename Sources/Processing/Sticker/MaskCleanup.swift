/// Tidies a soft subject mask the way a person expects a cut-out to look: the main subject kept
/// (its largest part and any part at least `keepFraction` of it), strays dropped (parts small
/// against the largest, far from every larger one and never sure), specks dropped, pinholes
/// filled. Soft edges of the kept parts stay as they were.
///
/// Specks and pinholes are judged against the predictor's resolution: a part or a hole of at most
/// `grain` pixels (four cells of the network's 320 x 320 grid, in the mask's pixels) is below what
/// the network can mean, so it is an artefact of upsampling and refinement. Anything larger is the
/// network's call: holes it sees (the inside of an "A", the gap between legs) stay open, and
/// separate parts down to 1% of the main one (an umlaut's dots, the dot of an "i") stay. (The
/// first version filled holes up to 5% of the subject and dropped parts under 10% of the largest:
/// on the cut-out benchmark that filled real holes and dropped real parts, 0.005 of mean IoU.)
public enum MaskCleanup {
    /// Parts under this fraction of the largest, and out of reach of every larger part, are
    /// strays (MaskCleanup+StrayParts.swift).
    public static let strayFraction = 0.1
    /// The reach, as a fraction of the longer side of the largest part's bounding box.
    public static let reachFraction = 0.2
    /// A part whose mask reaches this anywhere is something the network is sure of: never a stray.
    public static let strayPeak: UInt8 = 224

    /// `mask` is one byte a pixel (0 background ... 255 subject), `width * height` long.
    /// `keeping` lists pixels (`y * width + x`) a person asked to keep (include points): the parts
    /// holding them stay whatever their size.
    public static func cleaned(
        _ mask: [UInt8], width: Int, height: Int, keepFraction: Double = 0.01, grain: Int = 4, keeping: [Int] = [],
        strayFraction: Double = MaskCleanup.strayFraction, reachFraction: Double = MaskCleanup.reachFraction,
        strayPeak: UInt8 = MaskCleanup.strayPeak
    ) -> [UInt8] {
        precondition(mask.count == width * height, "MaskCleanup: mask size does not match \(width)x\(height)")
        let count = mask.count
        let solid = mask.withUnsafeBufferPointer {
            RunComponents($0, width: width, height: height, threshold: 128, below: false, eightConnected: true)
        }
        guard let largest = solid.areas.max(), largest > 0 else { return [UInt8](repeating: 0, count: count) }
        var kept = solid.areas.map { $0 == largest || ($0 > grain && Double($0) >= keepFraction * Double(largest)) }
        let strays = strayParts(
            of: solid, mask: mask, kept: kept, width: width, height: height,
            strayFraction: strayFraction, reachFraction: reachFraction, strayPeak: strayPeak)
        for part in kept.indices where strays[part] { kept[part] = false }
        for seed in keeping {
            if let component = solid.component(atX: seed % width, y: seed / width) { kept[component] = true }
        }
        var keep = [UInt8](repeating: 0, count: count)
        keep.withUnsafeMutableBufferPointer { keep in
            for (index, run) in solid.runs.enumerated() where kept[Int(solid.componentOfRun[index])] {
                let row = Int(run.y) * width
                (keep.baseAddress! + row + Int(run.start)).update(repeating: 1, count: Int(run.end - run.start))
            }
        }

        // Soft edge pixels (below 128) belong to a kept part when a kept solid pixel is within 2 px;
        // solid pixels of dropped parts go.
        let near = dilatedByTwo(keep, width: width, height: height)
        var result = [UInt8](unsafeUninitializedCapacity: count) { result, initialized in
            mask.withUnsafeBufferPointer { mask in
                for index in 0..<count {
                    let soft: UInt8 = mask[index] < 128 ? 1 : 0
                    let visible = keep[index] | (near[index] & soft)
                    result[index] = mask[index] & (0 &- visible)
                }
            }
            initialized = count
        }

        // Pinholes: background regions that don't touch the frame, of at most `grain` pixels.
        let holes = result.withUnsafeBufferPointer {
            RunComponents($0, width: width, height: height, threshold: 128, below: true, eightConnected: false)
        }
        var touchesFrame = [Bool](repeating: false, count: holes.areas.count)
        for (index, run) in holes.runs.enumerated()
        where run.y == 0 || Int(run.y) == height - 1 || run.start == 0 || Int(run.end) == width {
            touchesFrame[Int(holes.componentOfRun[index])] = true
        }
        result.withUnsafeMutableBufferPointer { result in
            for (index, run) in holes.runs.enumerated() {
                let label = Int(holes.componentOfRun[index])
                guard !touchesFrame[label], holes.areas[label] <= grain else { continue }
                (result.baseAddress! + Int(run.y) * width + Int(run.start)).update(repeating: 255, count: Int(run.end - run.start))
            }
        }
        return result
    }
}
