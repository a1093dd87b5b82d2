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
        if StageClock.measure(.decontaminate, { Self.hasMeaningfulTransparency(photo) }) {
            return (photo, stride(from: 3, to: photo.pixels.count, by: 4).map { Float(photo.pixels[$0]) / 255 })
        }
        let bytes = try predictedMask(photo, source: source)
        return StageClock.measure(.decontaminate) {
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
    /// size): the photo's own alpha when it has meaningful transparency. `source` as for `cutout`.
    public func mask(_ photo: RGBAImage, predictingFrom source: RGBAImage? = nil) throws(ProcessingError) -> [UInt8] {
        if Self.hasMeaningfulTransparency(photo) {
            return stride(from: 3, to: photo.pixels.count, by: 4).map { photo.pixels[$0] }
        }
        return try predictedMask(photo, source: source)
    }

    /// The predictor's mask, upsampled, refined along the photo's edges and cleaned up.
    private func predictedMask(_ photo: RGBAImage, source: RGBAImage?) throws(ProcessingError) -> [UInt8] {
        guard let predictor else {
            throw .segmentationUnavailable("no segmentation model is installed, so only images with their own transparency can be cut out")
        }
        let coarse = try StageClock.measure(.network) { () throws(ProcessingError) in try predictor.predictMask(for: source ?? photo) }
        return try StageClock.measure(.refine) { () throws(ProcessingError) in try refined(coarse, photo: photo) }
    }

    /// The predictor's mask brought to the photo's size, refined along its edges and cleaned up.
    private func refined(_ coarse: LowResolutionMask, photo: RGBAImage) throws(ProcessingError) -> [UInt8] {
        let upsampled = Self.bilinear(coarse, width: photo.width, height: photo.height)
        // The window follows the photo's size: about a pixel of the predictor's grid.
        let radius = max(2, max(photo.width, photo.height) / max(coarse.width, coarse.height))
        let bytes = GuidedFilter.refinedBytes(upsampled, guide: photo, radius: radius, epsilon: 1e-3)
        // Four cells of the predictor's grid, in the photo's pixels: the smallest part or hole it can mean.
        let grain = 4 * photo.width * photo.height / max(1, coarse.width * coarse.height)
        let cleaned = MaskCleanup.cleaned(bytes, width: photo.width, height: photo.height, grain: max(4, grain))
        guard cleaned.contains(where: { $0 >= 128 }) else { throw .noSubject("the photo has no distinct subject") }
        return cleaned
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
