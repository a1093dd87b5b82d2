/// The pipeline in two halves, for a cut-out tried again and again on one photo (the page's "Fix the
/// cut-out"): the photo is decoded once and kept, and each try runs only the cut-out and the render.
extension PhotoProcessor {
    /// The photo decoded as `process` decodes it (scaled to this processor's working size, upright,
    /// sRGB), to be kept and passed to `sticker(of:guidance:)`.
    @concurrent
    public func decode(_ bytes: [UInt8]) async throws(ProcessingError) -> DecodedPhoto {
        try PhotoDecoder.decode(bytes, options: decodeOptions)
    }

    /// The sticker `process` would make of `decoded` with `guidance`, without the palette (a preview
    /// shows the sticker alone). Guidance that does not fit the photo fails with `.invalidGuidance`.
    @concurrent
    public func sticker(of decoded: DecodedPhoto, guidance: CutoutGuidance) async throws(ProcessingError) -> StickerImage {
        do throws(GuidanceError) {
            try guidance.validate(width: decoded.width, height: decoded.height)
        } catch {
            throw .invalidGuidance(error.description)
        }
        let (_, cutout, sourceScale) = try cutout(of: decoded, guidance: guidance)
        return try await Self.sticker(of: cutout, style: settings.style, sourceScale: sourceScale).get()
    }

    /// The photo at the working size, its cut-out, and the scale `StickerRenderer` needs:
    /// the one path `process` and the preview share, so a preview is the sticker a save makes.
    func cutout(of decoded: DecodedPhoto, guidance: CutoutGuidance) throws(ProcessingError) -> (working: RGBAImage, cutout: RGBAImage, sourceScale: Double) {
        let working = StageClock.measure(.resize) { decoded.workingImage(longSide: decodeOptions.workingSize) }
        let cutout = try segmenter.cutout(
            working, predictingFrom: decoded.image, guidance: guidance, uprightSize: (decoded.width, decoded.height)
        ).cutout
        return (working, cutout, decoded.sourceScale(of: working))
    }
}
