/// The cut-out of a clip's frames in two steps, so that the predictor's masks of every frame can be
/// steadied together (``TemporalMaskFilter``) before each frame is refined on its own pixels.
extension SubjectSegmenter {
    /// The predictor's coarse mask of `frame`.
    public func coarseMask(of frame: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
        guard let predictor else {
            throw .segmentationUnavailable("no segmentation model is installed, so a clip cannot be cut out")
        }
        return try StageClock.measure(.network) { () throws(ProcessingError) in try predictor.predictMask(for: frame) }
    }

    /// `frame` cut out along `coarse` (a mask of the whole frame at the predictor's grid), refined and
    /// cleaned up as a still is. The cut-out's alpha is the mask; its edge colours are freed of the
    /// background.
    public func cutout(_ frame: RGBAImage, along coarse: LowResolutionMask) throws(ProcessingError) -> (cutout: RGBAImage, mask: [UInt8]) {
        let unguided = try WorkingGuidance(.none, upright: (frame.width, frame.height), working: (frame.width, frame.height))
        let bytes = try StageClock.measure(.refine) { () throws(ProcessingError) in
            try refined(Self.bilinear(coarse, width: frame.width, height: frame.height), coarse: coarse,
                        covering: (frame.width, frame.height), photo: frame, guidance: unguided)
        }
        return (Self.cutout(of: frame, alpha: bytes).cutout, bytes)
    }
}
