/// One photo's bytes to one PNG, as `catalog cutout` makes it (and `cutout-bench` times it): the
/// sticker, the whole frame cut out, or the subject's mask, whole at the photo's full oriented
/// size or cropped to the subject. Decoding comes first, on its own, so a bad photo is reported
/// as such before any model is looked for; the segmenter (and so the model) can be reused.
public struct CutoutJob: Sendable {
    /// What the PNG holds.
    public enum Output: Sendable, Equatable {
        /// The rendered sticker: cropped, outlined, `StickerStyle.size` on the long side (less for a
        /// subject too small in the photo, see `StickerRenderer.maxEnlargement`).
        case sticker(StickerStyle)
        /// The cut-out at the working size, whole frame, no outline.
        case frame
        /// The grey mask at the photo's full oriented size (what the quality benchmark scores).
        case mask
        /// The grey mask at the working size, cropped to the subject.
        case croppedMask
    }

    public let maxPixels: Int
    /// The cut-out runs at this long side; a full-size mask is then scaled up to the photo's size.
    public let workingSize: Int
    /// The box and points that steer the cut-out, in the upright photo's pixels.
    public let guidance: CutoutGuidance

    public init(maxPixels: Int = DecodeOptions.defaultMaxPixels, workingSize: Int = PhotoProcessor.workingSize, guidance: CutoutGuidance = .none) {
        self.maxPixels = maxPixels
        self.workingSize = workingSize
        self.guidance = guidance
    }

    /// The photo's pixels at about the working size, its full oriented size and EXIF. Guidance
    /// that does not fit the photo is `.invalidGuidance`, known from the size alone.
    public func decode(_ bytes: [UInt8]) throws(ProcessingError) -> DecodedPhoto {
        let decoded = try PhotoDecoder.decode(bytes, options: DecodeOptions(maxPixels: maxPixels, workingSize: workingSize))
        do throws(GuidanceError) {
            try guidance.validate(width: decoded.width, height: decoded.height)
        } catch {
            throw .invalidGuidance(error.description)
        }
        return decoded
    }

    public func png(from decoded: DecodedPhoto, segmenter: SubjectSegmenter, output: Output) throws(ProcessingError) -> [UInt8] {
        let working = decoded.workingImage(longSide: workingSize)
        let upright = (width: decoded.width, height: decoded.height)
        switch output {
        case .mask, .croppedMask:
            // One channel all the way: no colour decontamination, no RGBA upsampling or encoding.
            let mask = try segmenter.mask(working, predictingFrom: decoded.image, guidance: guidance, uprightSize: upright)
            return try output == .mask
                ? MaskOutput.png(mask, width: working.width, height: working.height, scaledTo: upright, inside: guidance.box)
                : MaskOutput.croppedPNG(mask, width: working.width, height: working.height)
        case .frame:
            return try PNGCodec.encode(try segmenter.cutout(working, predictingFrom: decoded.image, guidance: guidance, uprightSize: upright).cutout)
        case let .sticker(style):
            let cutout = try segmenter.cutout(working, predictingFrom: decoded.image, guidance: guidance, uprightSize: upright).cutout
            return try PNGCodec.encode(try StickerRenderer.render(cutout, style: style, sourceScale: decoded.sourceScale(of: working)))
        }
    }
}
