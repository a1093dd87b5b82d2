import Processing

/// The automatic refinements the cut-out benchmark can measure before any becomes part of the
/// product: each costs at least a second prediction, so each must show its gain first.
enum Refinement: String, CaseIterable {
    /// The cut-out as `catalog cutout` makes it.
    case none
    /// A second prediction on the subject's crop: the first mask's bounding box, grown by a tenth of
    /// its size a side, given as a guidance box (the network then sees the box and 15 % around it).
    case secondPass = "second-pass"
    /// The network's map averaged with its map of the mirrored photo.
    case flip

    /// The mask PNG at the photo's full size, as `CutoutJob.png(from:segmenter:output: .mask)` makes it.
    func maskPNG(_ decoded: DecodedPhoto, job: CutoutJob, segmenter: SubjectSegmenter) throws(ProcessingError) -> [UInt8] {
        switch self {
        case .none:
            return try job.png(from: decoded, segmenter: segmenter, output: .mask)
        case .flip:
            return try job.png(from: decoded, segmenter: SubjectSegmenter(predictor: segmenter.predictor.map { FlipAveragingPredictor(base: $0) }), output: .mask)
        case .secondPass:
            let working = decoded.workingImage(longSide: job.workingSize)
            let first = try segmenter.mask(working, predictingFrom: decoded.image)
            guard let box = Self.grownBounds(first, width: working.width, height: working.height, to: (decoded.width, decoded.height)) else {
                throw .noSubject("the first pass found no subject")
            }
            let second = CutoutJob(maxPixels: job.maxPixels, workingSize: job.workingSize, guidance: CutoutGuidance(box: box))
            return try second.png(from: decoded, segmenter: segmenter, output: .mask)
        }
    }

    /// The bounding box of the mask's subject (values of 128 or more) in the upright photo's pixels,
    /// grown by a tenth of its size on each side and kept inside the photo; nil for an empty mask.
    static func grownBounds(_ mask: [UInt8], width: Int, height: Int, to upright: (width: Int, height: Int)) -> CutoutGuidance.Box? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where mask[y * width + x] >= 128 {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        let scaleX = Double(upright.width) / Double(width), scaleY = Double(upright.height) / Double(height)
        let marginX = Double(maxX - minX + 1) * 0.1, marginY = Double(maxY - minY + 1) * 0.1
        let left = max(0, Int((Double(minX) - marginX) * scaleX))
        let top = max(0, Int((Double(minY) - marginY) * scaleY))
        let right = min(upright.width, Int(((Double(maxX + 1) + marginX) * scaleX).rounded(.up)))
        let bottom = min(upright.height, Int(((Double(maxY + 1) + marginY) * scaleY).rounded(.up)))
        return CutoutGuidance.Box(x: left, y: top, width: max(1, right - left), height: max(1, bottom - top))
    }
}

/// A predictor whose map is the mean of the base predictor's map of the photo and of its mirror image
/// (test-time augmentation): two predictions a photo.
struct FlipAveragingPredictor: MaskPredictor {
    let base: any MaskPredictor

    func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
        let direct = try base.predictMask(for: image)
        let mirrored = try base.predictMask(for: Self.mirrored(image))
        let width = direct.width
        var values = direct.values
        for y in 0..<direct.height {
            for x in 0..<width {
                values[y * width + x] = (values[y * width + x] + mirrored.values[y * width + (width - 1 - x)]) / 2
            }
        }
        return LowResolutionMask(width: width, height: direct.height, values: values)
    }

    static func mirrored(_ image: RGBAImage) -> RGBAImage {
        var pixels = image.pixels
        for y in 0..<image.height {
            for x in 0..<image.width {
                let from = (y * image.width + (image.width - 1 - x)) * 4, to = (y * image.width + x) * 4
                for channel in 0..<4 { pixels[to + channel] = image.pixels[from + channel] }
            }
        }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }
}
