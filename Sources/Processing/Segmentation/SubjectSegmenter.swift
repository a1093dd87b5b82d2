/// Something that says where the main subject of a photo is, at its own (low) resolution:
/// a probability a pixel, row by row. The u2netp network is one; tests use known masks.
public protocol MaskPredictor: Sendable {
    func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask
}

/// A soft mask (0...1) at a predictor's working size, to be brought back to the photo's size.
public struct LowResolutionMask: Sendable {
    public let width: Int
    public let height: Int
    public let values: [Float]

    public init(width: Int, height: Int, values: [Float]) {
        precondition(values.count == width * height, "LowResolutionMask: \(values.count) values for \(width)x\(height)")
        self.width = width
        self.height = height
        self.values = values
    }
}

/// Turns an oriented photo into a cut-out: the subject with a soft alpha mask, its edge colours
/// freed of the old background. Photos that already carry transparency keep their own alpha.
public struct SubjectSegmenter: Sendable {
    /// nil when no model is installed: then only photos with their own transparency can be cut out.
    public let predictor: (any MaskPredictor)?

    public init(predictor: (any MaskPredictor)?) {
        self.predictor = predictor
    }

    /// The cut-out (RGBA, alpha = subject) and its mask (0...1), at the photo's size.
    /// `source`, when given, is the same photo at a higher resolution (the decoded pixels before
    /// they were fitted to the working size): the predictor resizes from it, as rembg resizes
    /// from the full photo, while refinement and clean-up work at `photo`'s size.
    /// `guidance` is in the pixels of the upright photo of `uprightSize` (its full size, of which
    /// `photo` is a scaled copy).
    public func cutout(
        _ photo: RGBAImage, predictingFrom source: RGBAImage? = nil,
        guidance: CutoutGuidance = .none, uprightSize: (width: Int, height: Int)? = nil
    ) throws(ProcessingError) -> (cutout: RGBAImage, mask: [Float]) {
        let guidance = try WorkingGuidance(guidance, upright: uprightSize ?? (photo.width, photo.height), working: (photo.width, photo.height))
        if StageClock.measure(.decontaminate, { Self.hasMeaningfulTransparency(photo) }) {
            if guidance.isEmpty {
                return (photo, stride(from: 3, to: photo.pixels.count, by: 4).map { Float(photo.pixels[$0]) / 255 })
            }
            let alpha = try Self.guidedAlpha(photo, guidance: guidance)
            var cutout = photo
            for index in alpha.indices { cutout.pixels[index * 4 + 3] = alpha[index] }
            return (cutout, alpha.map { Float($0) / 255 })
        }
        return Self.cutout(of: photo, alpha: try predictedMask(photo, source: source, guidance: guidance))
    }

    /// `photo` with `bytes` (one a pixel) as its alpha and its edge colours freed of the background,
    /// and the mask as 0...1.
    static func cutout(of photo: RGBAImage, alpha bytes: [UInt8]) -> (cutout: RGBAImage, mask: [Float]) {
        StageClock.measure(.decontaminate) {
            let mask = bytes.map { Float($0) / 255 }
            var cutout = EdgeDecontamination.decontaminated(photo, alpha: mask)
            cutout.pixels.withUnsafeMutableBufferPointer { pixels in
                bytes.withUnsafeBufferPointer { bytes in
                    for index in 0..<bytes.count { pixels[index &* 4 &+ 3] = bytes[index] }
                }
            }
            return (cutout, mask)
        }
    }

    /// The subject's mask alone (0 background ... 255 subject, one byte a pixel, at the photo's
    /// size): the photo's own alpha when it has meaningful transparency. `source`, `guidance` and
    /// `uprightSize` as for `cutout`.
    public func mask(
        _ photo: RGBAImage, predictingFrom source: RGBAImage? = nil,
        guidance: CutoutGuidance = .none, uprightSize: (width: Int, height: Int)? = nil
    ) throws(ProcessingError) -> [UInt8] {
        let guidance = try WorkingGuidance(guidance, upright: uprightSize ?? (photo.width, photo.height), working: (photo.width, photo.height))
        if Self.hasMeaningfulTransparency(photo) {
            if guidance.isEmpty { return stride(from: 3, to: photo.pixels.count, by: 4).map { photo.pixels[$0] } }
            return try Self.guidedAlpha(photo, guidance: guidance)
        }
        return try predictedMask(photo, source: source, guidance: guidance)
    }

    /// The predictor's mask, upsampled, refined along the photo's edges, guided and cleaned up.
    /// With a box the predictor sees only the box and its margin, at the source's resolution.
    private func predictedMask(_ photo: RGBAImage, source: RGBAImage?, guidance: WorkingGuidance) throws(ProcessingError) -> [UInt8] {
        guard let predictor else {
            throw .segmentationUnavailable("no segmentation model is installed, so only images with their own transparency can be cut out")
        }
        let source = source ?? photo
        guard let crop = guidance.sourceCrop(width: source.width, height: source.height) else {
            let coarse = try StageClock.measure(.network) { () throws(ProcessingError) in try predictor.predictMask(for: source) }
            return try StageClock.measure(.refine) { () throws(ProcessingError) in
                try refined(Self.bilinear(coarse, width: photo.width, height: photo.height), coarse: coarse,
                            covering: (photo.width, photo.height), photo: photo, guidance: guidance)
            }
        }
        let coarse = try StageClock.measure(.network) { () throws(ProcessingError) in
            try predictor.predictMask(for: source.cropped(x: crop.x0, y: crop.y0, width: crop.width, height: crop.height))
        }
        return try StageClock.measure(.refine) { () throws(ProcessingError) in
            let scaleX = Double(photo.width) / Double(source.width), scaleY = Double(photo.height) / Double(source.height)
            let region = (x0: Double(crop.x0) * scaleX, y0: Double(crop.y0) * scaleY, x1: Double(crop.x1) * scaleX, y1: Double(crop.y1) * scaleY)
            let placed = PlaneResampler.placed(coarse.values, width: coarse.width, height: coarse.height, in: region,
                                               toWidth: photo.width, toHeight: photo.height)
            let covering = (max(1, Int((region.x1 - region.x0).rounded())), max(1, Int((region.y1 - region.y0).rounded())))
            return try refined(placed, coarse: coarse, covering: covering, photo: photo, guidance: guidance)
        }
    }

    /// The predictor's mask at the photo's size (`upsampled`, the coarse one `covering` that many
    /// of the photo's pixels) refined along its edges, guided and cleaned up.
    func refined(
        _ upsampled: [Float], coarse: LowResolutionMask, covering: (width: Int, height: Int), photo: RGBAImage, guidance: WorkingGuidance
    ) throws(ProcessingError) -> [UInt8] {
        // The window follows the photo's size: about a pixel of the predictor's grid.
        let radius = max(2, max(covering.width, covering.height) / max(coarse.width, coarse.height))
        let bytes = GuidedFilter.refinedBytes(upsampled, guide: photo, radius: radius, epsilon: 1e-3)
        // Four cells of the predictor's grid, in the photo's pixels: the smallest part or hole it can mean.
        let grain = 4 * covering.width * covering.height / max(1, coarse.width * coarse.height)
        let guided = guidance.isEmpty ? (mask: bytes, keeping: []) : GuidedMask.applied(guidance, to: bytes, photo: photo)
        let cleaned = MaskCleanup.cleaned(guided.mask, width: photo.width, height: photo.height, grain: max(4, grain), keeping: guided.keeping)
        guard cleaned.contains(where: { $0 >= 128 }) else { throw .noSubject("the photo has no distinct subject") }
        return cleaned
    }

    /// A transparent image's own alpha under guidance: the box and exclude points apply, include
    /// points cannot add to it (what lies under its transparent pixels is not the photo).
    private static func guidedAlpha(_ photo: RGBAImage, guidance: WorkingGuidance) throws(ProcessingError) -> [UInt8] {
        let alpha = stride(from: 3, to: photo.pixels.count, by: 4).map { photo.pixels[$0] }
        let guided = GuidedMask.applied(guidance.withoutIncludes, to: alpha, photo: photo).mask
        guard guided.contains(where: { $0 >= 128 }) else { throw .noSubject("nothing of the image is left inside the guidance") }
        return guided
    }

    /// True when at least 1% of the pixels are clearly see-through: the image was cut out already.
    /// (A stray transparent pixel or an all-opaque alpha channel doesn't count.)
    static func hasMeaningfulTransparency(_ image: RGBAImage) -> Bool {
        let transparent = image.pixels.withUnsafeBufferPointer { pixels in
            var transparent = 0
            for index in stride(from: 3, to: pixels.count, by: 4) { transparent &+= pixels[index] < 128 ? 1 : 0 }
            return transparent
        }
        return transparent * 100 >= image.width * image.height
    }

    /// Bilinear resampling with pixel centres aligned (half-pixel convention).
    static func bilinear(_ mask: LowResolutionMask, width: Int, height: Int) -> [Float] {
        PlaneResampler.bilinear(mask.values, width: mask.width, height: mask.height, toWidth: width, toHeight: height)
    }
}
