/// Carries a box drawn on a clip's first frame through the clip: each frame's coarse mask keeps
/// only what lies in its box, and the next frame's box is where this frame's subject is, widened so
/// the subject may move. A subject that leaves for a moment keeps the last box it had.
enum SubjectBoxFollower {
    /// A rectangle of mask cells, `x0..<x1` by `y0..<y1`.
    struct Cells: Equatable {
        var x0: Int, y0: Int, x1: Int, y1: Int
    }

    /// How much of the subject's size is added on each side for the next frame: a subject that
    /// crosses a third of its width between two frames is still inside.
    static let margin = 0.35

    /// `masks` (one grid size) restricted to the box followed from `first`.
    static func follow(_ masks: [LowResolutionMask], from first: Cells) -> [LowResolutionMask] {
        var box = first
        return masks.map { mask in
            let kept = restricted(mask, to: box)
            if let subject = subjectCells(kept) { box = widened(subject, width: mask.width, height: mask.height) }
            return kept
        }
    }

    /// `box` (pixels of a `width` x `height` frame) as the cells of a `grid`-sized mask covering the frame.
    static func cells(of box: CutoutGuidance.Box, frame: (width: Int, height: Int), grid: (width: Int, height: Int)) -> Cells {
        let scaleX = Double(grid.width) / Double(frame.width), scaleY = Double(grid.height) / Double(frame.height)
        let x0 = max(0, min(grid.width - 1, Int((Double(box.x) * scaleX).rounded(.down))))
        let y0 = max(0, min(grid.height - 1, Int((Double(box.y) * scaleY).rounded(.down))))
        let x1 = min(grid.width, max(x0 + 1, Int((Double(box.x + box.width) * scaleX).rounded(.up))))
        let y1 = min(grid.height, max(y0 + 1, Int((Double(box.y + box.height) * scaleY).rounded(.up))))
        return Cells(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    static func restricted(_ mask: LowResolutionMask, to box: Cells) -> LowResolutionMask {
        var values = [Float](repeating: 0, count: mask.values.count)
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 { values[y * mask.width + x] = mask.values[y * mask.width + x] }
        }
        return LowResolutionMask(width: mask.width, height: mask.height, values: values)
    }

    /// The cells where the mask says subject (≥ 0.5), or nil when there are none.
    static func subjectCells(_ mask: LowResolutionMask) -> Cells? {
        var box: Cells?
        for y in 0..<mask.height {
            for x in 0..<mask.width where mask.values[y * mask.width + x] >= 0.5 {
                if var found = box {
                    found.x0 = min(found.x0, x)
                    found.x1 = max(found.x1, x + 1)
                    found.y0 = min(found.y0, y)
                    found.y1 = max(found.y1, y + 1)
                    box = found
                } else {
                    box = Cells(x0: x, y0: y, x1: x + 1, y1: y + 1)
                }
            }
        }
        return box
    }

    static func widened(_ box: Cells, width: Int, height: Int) -> Cells {
        let dx = max(2, Int((Double(box.x1 - box.x0) * margin).rounded(.up)))
        let dy = max(2, Int((Double(box.y1 - box.y0) * margin).rounded(.up)))
        return Cells(x0: max(0, box.x0 - dx), y0: max(0, box.y0 - dy), x1: min(width, box.x1 + dx), y1: min(height, box.y1 + dy))
    }
}
