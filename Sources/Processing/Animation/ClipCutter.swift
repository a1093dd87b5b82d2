/// A clip's frames made into the frames of an animated sticker: each frame cut out with the same
/// model and settings as a still, the masks steadied over time (``TemporalMaskFilter``), one crop
/// box for the whole clip (the union of every frame's subject), the outline and shadow drawn as on
/// stills. The palette is taken over all frames; the similarity signature from the first.
public struct ClipCutter: Sendable {
    public var style: StickerStyle
    public var paletteColors: Int
    /// The long side frames are cut out at (larger frames are reduced to it first).
    public var workingSize: Int
    public let segmenter: SubjectSegmenter
    /// Whether the masks are steadied over time (off only to measure what the steadying does).
    var steadies = true

    public init(style: StickerStyle, paletteColors: Int, workingSize: Int = PhotoProcessor.workingSize, segmenter: SubjectSegmenter) {
        self.style = style
        self.paletteColors = paletteColors
        self.workingSize = workingSize
        self.segmenter = segmenter
    }

    /// The sticker frames of `frames` (all of one size, upright). Fails with `.noSubject` when no
    /// frame has one. `box`, drawn on the first frame in pixels of the upright clip of `upright`
    /// size (frames may be smaller), picks the subject, and follows it through the clip. Each stage's
    /// frames run on the cores the batch can spare (``FrameWorkers``); the result is the same however
    /// many there are.
    public func cut(
        _ frames: [RGBAImage], box: CutoutGuidance.Box? = nil, upright: (width: Int, height: Int)? = nil
    ) async throws(ProcessingError) -> ClipCutout {
        guard let first = frames.first else { throw .noSubject("the clip has no frames") }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw .encodingFailed("the clip's frames differ in size")
        }
        let working = frames.map { ImageResizer.reducedToWorkingSize($0, workingSize: workingSize) }
        let sourceScale = Double(first.width) / Double(working[0].width)
        let cutouts = try await steadyCutouts(of: working, box: box, upright: upright ?? (first.width, first.height))
        let box = try Self.unionOfSubjects(cutouts.map(\.cutout))
        let style = style
        let stickers = try await FrameWorkers.map(count: cutouts.count) { index throws(ProcessingError) in
            try StageClock.measure(.render) { () throws(ProcessingError) in
                try StickerRenderer.render(cutouts[index].cutout, style: style, sourceScale: sourceScale, box: box)
            }
        }
        let palette = StageClock.measure(.palette) {
            PaletteExtractor.palette(of: Self.montage(cutouts.map(\.cutout), box: box), colors: paletteColors)
        }
        let signature = StageClock.measure(.signature) { SimilaritySignature.of(photo: working[0], cutout: cutouts[0].cutout) }
        return ClipCutout(frames: stickers, palette: palette, signature: signature.coloured(by: palette), masks: cutouts.map(\.mask))
    }

    /// Every frame's cut-out along its steadied coarse mask. A frame in which the clean-up finds no
    /// subject is kept, empty: the subject may leave the picture for a moment. The network's masks of
    /// all frames come first (the filter looks at the frames around each one), then each frame is
    /// refined on its own. `box` (pixels of the upright clip of `upright` size) is drawn on the first
    /// frame: each mask keeps what lies in the box followed from it (a pass in order, cheap beside
    /// the network).
    func steadyCutouts(
        of frames: [RGBAImage], box: CutoutGuidance.Box? = nil, upright: (width: Int, height: Int)? = nil
    ) async throws(ProcessingError) -> [(cutout: RGBAImage, mask: [UInt8])] {
        let segmenter = segmenter
        // The scene's brightness on the mask's grid, for the filter, taken while the frame is at hand.
        let coarse = try await FrameWorkers.map(count: frames.count) { index throws(ProcessingError) in
            let mask = try segmenter.coarseMask(of: frames[index])
            return (mask: mask, brightness: TemporalMaskFilter.brightness(of: frames[index], width: mask.width, height: mask.height))
        }
        var masks = coarse.map(\.mask)
        let brightness = coarse.map(\.brightness)
        if let box, let grid = masks.first, let firstFrame = frames.first {
            let cells = SubjectBoxFollower.cells(of: box, frame: upright ?? (firstFrame.width, firstFrame.height), grid: (grid.width, grid.height))
            masks = SubjectBoxFollower.follow(masks, from: cells)
        }
        let followed = masks
        let steadied = try await steadies
            ? FrameWorkers.map(count: followed.count) { index in TemporalMaskFilter.steadied(followed, brightness: brightness, frame: index) }
            : followed
        let cutouts = try await FrameWorkers.map(count: frames.count) { index throws(ProcessingError) in
            let frame = frames[index]
            do throws(ProcessingError) {
                return try segmenter.cutout(frame, along: steadied[index])
            } catch .noSubject {
                var empty = frame
                for alpha in stride(from: 3, to: empty.pixels.count, by: 4) { empty.pixels[alpha] = 0 }
                return (empty, [UInt8](repeating: 0, count: frame.width * frame.height))
            }
        }
        guard cutouts.contains(where: { $0.mask.contains { $0 >= 128 } }) else { throw .noSubject("no frame of the clip has a distinct subject") }
        return cutouts
    }

    /// The smallest box that holds the subject of every frame.
    static func unionOfSubjects(_ cutouts: [RGBAImage]) throws(ProcessingError) -> (x: Int, y: Int, width: Int, height: Int) {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for cutout in cutouts {
            guard let box = StickerRenderer.subjectBounds(cutout) else { continue }
            minX = min(minX, box.x)
            minY = min(minY, box.y)
            maxX = max(maxX, box.x + box.width)
            maxY = max(maxY, box.y + box.height)
        }
        guard minX < maxX, minY < maxY else { throw .noSubject("every frame's cut-out is fully transparent") }
        return (minX, minY, maxX - minX, maxY - minY)
    }

    /// The frames' subjects inside `box`, stacked into one image for the palette, reduced so that
    /// the whole holds about as many pixels as one still's cut-out.
    static func montage(_ cutouts: [RGBAImage], box: (x: Int, y: Int, width: Int, height: Int)) -> RGBAImage {
        let budget = 1_048_576 / max(1, cutouts.count)
        let scale = min(1, (Double(budget) / Double(box.width * box.height)).squareRoot())
        let width = max(1, Int(Double(box.width) * scale)), height = max(1, Int(Double(box.height) * scale))
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4 * cutouts.count)
        for cutout in cutouts {
            let part = cutout.cropped(x: box.x, y: box.y, width: box.width, height: box.height)
            pixels.append(contentsOf: ImageResizer.resized(part, width: width, height: height).pixels)
        }
        return RGBAImage(width: width, height: height * cutouts.count, pixels: pixels)
    }
}

/// What ``ClipCutter`` makes of a clip: the sticker's frames (one size, straight RGBA), the
/// palette over all of them, the similarity signature, and each frame's subject mask at the working
/// size (for measuring how steady it is).
public struct ClipCutout: Sendable {
    public var frames: [RGBAImage]
    public var palette: Palette
    public var signature: SimilaritySignature
    public var masks: [[UInt8]]

    /// The mean intersection over union of consecutive frames' masks (subject: mask ≥ 128): 1 for a
    /// mask that never changes. What "without flicker" is measured by, on a clip of a still subject.
    public var steadiness: Double {
        guard masks.count > 1 else { return 1 }
        var total = 0.0
        for index in 1..<masks.count { total += Self.intersectionOverUnion(masks[index - 1], masks[index]) }
        return total / Double(masks.count - 1)
    }

    static func intersectionOverUnion(_ first: [UInt8], _ second: [UInt8]) -> Double {
        var both = 0, either = 0
        for index in first.indices {
            let a = first[index] >= 128, b = second[index] >= 128
            both += a && b ? 1 : 0
            either += a || b ? 1 : 0
        }
        return either == 0 ? 1 : Double(both) / Double(either)
    }
}
