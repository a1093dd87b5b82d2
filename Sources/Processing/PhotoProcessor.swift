/// Turns a photo's bytes into a `ProcessedPhoto`: decode (scaled), orient, cut the subject out,
/// render the sticker and take the palette and the similarity signature.
/// Pipeline version 6: small, unsure parts far from the subject are dropped from its mask
/// (`MaskCleanup.strayParts`), so some stickers lose a stray island.
/// Version 5: the palette's clustering starts from principal-axis splits, so a photo and its
/// lossy twins get the same colours (`KMeans.splitCenters`); the stickers are as in version 4.
/// Version 4: the similarity signature (`SimilaritySignature`) is part of every entry; a
/// change to how it is made is a new pipeline version, like a change to any other stage.
/// Version 3: embedded colour profiles are converted to sRGB (`ColorConverter`) before
/// the cut-out, the palette and the sticker; the sticker is the cut-out subject
/// (`SubjectSegmenter`), cropped, scaled and outlined by `StickerRenderer` with `settings.style`.
/// (Version 0 was the whole photo, resized; version 1 fed the network from the 1024-px working copy
/// and cleaned the mask more aggressively; version 2 read every photo as sRGB.)
public nonisolated struct PhotoProcessor: Sendable {
    /// The version of the pipeline this binary runs; entries made by an older one are stale.
    public static let pipelineVersion = 6
    /// The cut-out's working long side: enough for the network's 320-pixel input and for the
    /// edge refinement, far less than 12 MP. Larger stickers get twice their size.
    public static let workingSize = 1024

    public var settings: StickerSettings
    public var decodeOptions: DecodeOptions
    /// Shared by every photo of an import (the network is loaded once; predicting is thread-safe).
    public let segmenter: SubjectSegmenter

    /// `predictor` nil: only photos with their own transparency can be processed (others fail
    /// with `segmentation-unavailable`); callers check that a model is installed first.
    public init(settings: StickerSettings = .default, maxPixels: Int = DecodeOptions.defaultMaxPixels, predictor: (any MaskPredictor)?) {
        self.settings = settings
        self.segmenter = SubjectSegmenter(predictor: predictor)
        self.decodeOptions = DecodeOptions(maxPixels: maxPixels, workingSize: max(Self.workingSize, settings.size * 2))
    }

    /// Runs the whole pipeline off the caller's actor; CPU-bound, so callers bound how many run at once.
    @concurrent
    public func process(_ bytes: [UInt8], guidance: CutoutGuidance = .none, clip: ClipWindow? = nil) async throws(ProcessingError) -> ProcessedPhoto {
        try await attempt(bytes, guidance: guidance, clip: clip).result.get()
    }

    /// Runs the whole pipeline, and keeps what the decode learned (format, size, EXIF, warnings)
    /// when a later stage fails (no subject, a failed encode...), for the catalog to record.
    /// `guidance` (the entry's box and points, in the upright photo's pixels) steers the cut-out;
    /// guidance that does not fit the photo fails the photo with `.invalidGuidance`. `clip` (the entry's
    /// part of a clip, nil for the default) applies to clips and animations; a still ignores it.
    @concurrent
    public func attempt(_ bytes: [UInt8], guidance: CutoutGuidance = .none, clip: ClipWindow? = nil) async -> ProcessingAttempt {
        // Clips and animated images become animated stickers. Their guidance is a box on the first
        // frame; points, which name pixels of one picture, are refused rather than ignored.
        if let format = AnimationFormat.detect(bytes) {
            guard guidance.include.isEmpty, guidance.exclude.isEmpty else {
                return ProcessingAttempt(facts: nil, warnings: [], result: .failure(
                    .invalidGuidance("\(format.displayName) becomes an animated sticker, whose cut-out takes a box on its first frame, not points")))
            }
            return await animatedAttempt(bytes, format: format, box: guidance.box, part: clip ?? .default)
        }
        let decoded: DecodedPhoto
        do throws(ProcessingError) {
            decoded = try PhotoDecoder.decode(bytes, options: decodeOptions)
        } catch {
            return ProcessingAttempt(facts: nil, warnings: [], result: .failure(error))
        }
        do throws(ProcessingError) {
            let processed = try await process(decoded, guidance: guidance)
            return ProcessingAttempt(facts: decoded.facts, warnings: decoded.warnings, result: .success(processed))
        } catch {
            return ProcessingAttempt(facts: decoded.facts, warnings: decoded.warnings, result: .failure(error))
        }
    }

    /// The stages after the decode.
    private func process(_ decoded: DecodedPhoto, guidance: CutoutGuidance) async throws(ProcessingError) -> ProcessedPhoto {
        let (working, cutout, sourceScale) = try cutout(of: decoded, guidance: guidance)
        // The sticker, the palette and the signature all read the cut-out (and the photo) and nothing
        // else: side by side.
        async let sticker = Self.sticker(of: cutout, style: settings.style, sourceScale: sourceScale)
        async let palette = Self.palette(of: cutout, colors: settings.paletteColors)
        async let signature = Self.signature(of: working, cutout: cutout)
        return ProcessedPhoto(
            format: decoded.format,
            width: decoded.width,
            height: decoded.height,
            exif: decoded.exif,
            sticker: try await sticker.get(),
            palette: await palette,
            pipelineVersion: Self.pipelineVersion,
            settings: settings,
            signature: await signature.coloured(by: palette),
            warnings: decoded.warnings
        )
    }

    /// The rendered sticker as PNG (a `Result`: `async let` would forget the error's type);
    /// `sourceScale` as for `StickerRenderer.render`.
    @concurrent
    static func sticker(of cutout: RGBAImage, style: StickerStyle, sourceScale: Double) async -> Result<StickerImage, ProcessingError> {
        do throws(ProcessingError) {
            let pixels = try StageClock.measure(.render) { () throws(ProcessingError) in
                try StickerRenderer.render(cutout, style: style, sourceScale: sourceScale)
            }
            let png = try StageClock.measure(.encode) { () throws(ProcessingError) in try PNGCodec.encode(pixels) }
            return .success(StickerImage(png: png, width: pixels.width, height: pixels.height))
        } catch {
            return .failure(error)
        }
    }

    /// What near-duplicates are found by: the photo's hash and its subject's.
    @concurrent
    static func signature(of working: RGBAImage, cutout: RGBAImage) async -> SimilaritySignature {
        StageClock.measure(.signature) { SimilaritySignature.of(photo: working, cutout: cutout) }
    }

    /// The subject's dominant colours (the cut-out, before the outline is drawn).
    @concurrent
    static func palette(of cutout: RGBAImage, colors: Int) async -> Palette {
        StageClock.measure(.palette) { PaletteExtractor.palette(of: cutout, colors: colors) }
    }
}

/// One photo through the pipeline: the result, and what the decode learned either way (nil facts:
/// the bytes did not decode).
public struct ProcessingAttempt: Sendable {
    public var facts: PhotoFacts?
    /// Problems that did not stop the work (an unusable colour profile, taken as sRGB).
    public var warnings: [String]
    public var result: Result<ProcessedPhoto, ProcessingError>
}
