/// A person's guidance applied to a refined mask (one byte a pixel, at the working size), before
/// the clean-up. The rules, in the order they run:
///
/// - **Box**: everything outside it is 0.
/// - **Include point** on the subject (128 or more): nothing to add; its part is kept by the
///   clean-up whatever its size. On a weak part (0.2 up to 0.5, what the network half saw): the
///   connected region of at least 0.2 around the point is taken as subject, its values lifted so
///   that 0.2 becomes 0.5 and the point's own value opaque (a soft edge of the subject touching
///   that region moves out to its 0.2 line, a pixel or two). Where the network saw nothing (under
///   0.2), or the weak region is over half the frame: the region that looks like the point
///   (`ColorRegion`) within an eighth of the frame's long side of it, its edge softened along the
///   photo's (`GuidedFilter`).
/// - **Exclude point** on a part of the subject that is not its largest: that whole part goes (a
///   stray blob, the dog's bed lying apart). On the largest part: only what looks like the point
///   within a quarter of the frame's long side of it (`ColorRegion`, kept inside that part), so
///   one point never takes the whole subject away. Off the subject (under 0.5): nothing.
///
/// Excludes run after includes, so an exclude wins where both reach. "The frame" is the box when
/// there is one.
enum GuidedMask {
    /// 0.2: the lower threshold an include point reads the network's mask with.
    static let weak: UInt8 = 51
    static let solid: UInt8 = 128

    /// `mask` with `guidance` applied, and the pixels the clean-up must keep (the include points).
    static func applied(_ guidance: WorkingGuidance, to mask: [UInt8], photo: RGBAImage) -> (mask: [UInt8], keeping: [Int]) {
        let width = photo.width, height = photo.height
        var mask = mask
        let frame = guidance.box ?? WorkingGuidance.Rect(x0: 0, y0: 0, x1: width, y1: height)
        if let box = guidance.box {
            for y in 0..<height {
                let inside = y >= box.y0 && y < box.y1
                for x in 0..<width where !inside || x < box.x0 || x >= box.x1 { mask[y * width + x] = 0 }
            }
        }
        let longSide = max(frame.width, frame.height)
        for point in guidance.include { include(point, in: &mask, photo: photo, frame: frame, radius: max(8, longSide / 8)) }
        for point in guidance.exclude { exclude(point, from: &mask, photo: photo, frame: frame, radius: max(8, longSide / 4)) }
        return (mask, guidance.include.map { $0.y * width + $0.x })
    }

    private static func include(_ point: (x: Int, y: Int), in mask: inout [UInt8], photo: RGBAImage, frame: WorkingGuidance.Rect, radius: Int) {
        let width = photo.width, value = mask[point.y * width + point.x]
        if value >= solid { return }
        if value >= weak {
            let parts = mask.withUnsafeBufferPointer {
                RunComponents($0, width: width, height: photo.height, threshold: weak, below: false, eightConnected: true)
            }
            guard let part = parts.component(atX: point.x, y: point.y) else { return }
            var weakPixels = 0
            parts.forEachRun(of: part) { y, columns in
                for x in columns where mask[y * width + x] < solid { weakPixels += 1 }
            }
            if weakPixels * 2 <= frame.width * frame.height {
                let span = max(1, Int(value) - Int(weak))
                parts.forEachRun(of: part) { y, columns in
                    for x in columns where mask[y * width + x] < solid {
                        let lifted = Int(solid) + (Int(mask[y * width + x]) - Int(weak)) * 127 / span
                        mask[y * width + x] = UInt8(min(255, lifted))
                    }
                }
                return
            }
        }
        let region = ColorRegion.grown(in: photo, from: point, radius: radius, within: frame)
        softened(region, photo: photo, frame: frame) { index, alpha in mask[index] = max(mask[index], alpha) }
    }

    private static func exclude(_ point: (x: Int, y: Int), from mask: inout [UInt8], photo: RGBAImage, frame: WorkingGuidance.Rect, radius: Int) {
        let width = photo.width
        guard mask[point.y * width + point.x] >= solid else { return }
        let parts = mask.withUnsafeBufferPointer {
            RunComponents($0, width: width, height: photo.height, threshold: solid, below: false, eightConnected: true)
        }
        guard let part = parts.component(atX: point.x, y: point.y) else { return }
        if parts.areas[part] < parts.areas.max() ?? 0 {
            parts.forEachRun(of: part) { y, columns in
                for x in columns { mask[y * width + x] = 0 }
            }
            return
        }
        let region = mask.withUnsafeBufferPointer { current in
            ColorRegion.grown(in: photo, from: point, radius: radius, within: frame) { current[$0] >= solid }
        }
        softened(region, photo: photo, frame: frame) { index, alpha in mask[index] = min(mask[index], 255 - alpha) }
    }

    /// `region` as alpha with its edge following the photo's (the guided filter over the region's
    /// bounds and 4 pixels around, inside `frame`): `body` gets each pixel there and its alpha.
    private static func softened(_ region: [Int], photo: RGBAImage, frame: WorkingGuidance.Rect, _ body: (Int, UInt8) -> Void) {
        guard let first = region.first else { return }
        let width = photo.width
        var bounds = WorkingGuidance.Rect(x0: first % width, y0: first / width, x1: first % width + 1, y1: first / width + 1)
        for index in region {
            let x = index % width, y = index / width
            bounds = WorkingGuidance.Rect(x0: min(bounds.x0, x), y0: min(bounds.y0, y), x1: max(bounds.x1, x + 1), y1: max(bounds.y1, y + 1))
        }
        let padding = 4
        bounds = WorkingGuidance.Rect(
            x0: max(frame.x0, bounds.x0 - padding), y0: max(frame.y0, bounds.y0 - padding),
            x1: min(frame.x1, bounds.x1 + padding), y1: min(frame.y1, bounds.y1 + padding)
        )
        var plane = [Float](repeating: 0, count: bounds.width * bounds.height)
        for index in region { plane[(index / width - bounds.y0) * bounds.width + index % width - bounds.x0] = 1 }
        let guide = photo.cropped(x: bounds.x0, y: bounds.y0, width: bounds.width, height: bounds.height)
        let alpha = GuidedFilter.refinedBytes(plane, guide: guide, radius: 2, epsilon: 1e-3)
        for y in 0..<bounds.height {
            for x in 0..<bounds.width { body((bounds.y0 + y) * width + bounds.x0 + x, alpha[y * bounds.width + x]) }
        }
    }
}
