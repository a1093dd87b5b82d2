/// A `CutoutGuidance` carried from the upright photo's pixels into those of the working image (a
/// scaled copy of the whole upright frame), where refinement and clean-up happen, and into those
/// of the source the network is fed from.
struct WorkingGuidance: Sendable {
    /// A rectangle of whole pixels, `x0..<x1` by `y0..<y1`.
    struct Rect: Sendable, Equatable {
        var x0: Int, y0: Int, x1: Int, y1: Int
        var width: Int { x1 - x0 }
        var height: Int { y1 - y0 }
    }

    /// The share of the box's width (and height) added on each side before the network sees it:
    /// the network judges a subject against its surroundings, and one cut flush at its edges
    /// reads as less of a subject.
    static let boxMargin = 0.15

    private(set) var guidance: CutoutGuidance
    let upright: (width: Int, height: Int)
    let working: (width: Int, height: Int)
    /// The box in working pixels: those whose centre lies in it (at least one).
    let box: Rect?
    /// Include and exclude points as working pixels.
    private(set) var include: [(x: Int, y: Int)]
    let exclude: [(x: Int, y: Int)]

    /// Fails with `.invalidGuidance` when the guidance does not fit the upright photo.
    init(_ guidance: CutoutGuidance, upright: (width: Int, height: Int), working: (width: Int, height: Int)) throws(ProcessingError) {
        do {
            try guidance.validate(width: upright.width, height: upright.height)
        } catch {
            throw .invalidGuidance(error.description)
        }
        self.guidance = guidance
        self.upright = upright
        self.working = working
        let scaleX = Double(working.width) / Double(upright.width), scaleY = Double(working.height) / Double(upright.height)
        box = guidance.box.map { box in
            let x0 = min(working.width - 1, Int((Double(box.x) * scaleX).rounded()))
            let y0 = min(working.height - 1, Int((Double(box.y) * scaleY).rounded()))
            let x1 = min(working.width, max(x0 + 1, Int((Double(box.x + box.width) * scaleX).rounded())))
            let y1 = min(working.height, max(y0 + 1, Int((Double(box.y + box.height) * scaleY).rounded())))
            return Rect(x0: x0, y0: y0, x1: x1, y1: y1)
        }
        func pixel(_ point: CutoutGuidance.Point) -> (x: Int, y: Int) {
            (min(working.width - 1, Int((Double(point.x) + 0.5) * scaleX)), min(working.height - 1, Int((Double(point.y) + 0.5) * scaleY)))
        }
        include = guidance.include.map(pixel)
        exclude = guidance.exclude.map(pixel)
    }

    var isEmpty: Bool { guidance.isEmpty }

    /// The same guidance without its include points.
    var withoutIncludes: WorkingGuidance {
        var copy = self
        copy.guidance.include = []
        copy.include = []
        return copy
    }

    /// The part of a source image of `size` (the same upright frame at its own scale) the network
    /// is shown for the box: the box and its margin, clamped to the frame. nil without a box.
    func sourceCrop(width: Int, height: Int) -> Rect? {
        guard let box = guidance.box else { return nil }
        let marginX = Int((Double(box.width) * Self.boxMargin).rounded()), marginY = Int((Double(box.height) * Self.boxMargin).rounded())
        let left = max(0, box.x - marginX), right = min(upright.width, box.x + box.width + marginX)
        let top = max(0, box.y - marginY), bottom = min(upright.height, box.y + box.height + marginY)
        let scaleX = Double(width) / Double(upright.width), scaleY = Double(height) / Double(upright.height)
        let x0 = min(width - 1, Int((Double(left) * scaleX).rounded(.down)))
        let y0 = min(height - 1, Int((Double(top) * scaleY).rounded(.down)))
        return Rect(x0: x0, y0: y0,
                    x1: min(width, max(x0 + 1, Int((Double(right) * scaleX).rounded(.up)))),
                    y1: min(height, max(y0 + 1, Int((Double(bottom) * scaleY).rounded(.up)))))
    }
}
