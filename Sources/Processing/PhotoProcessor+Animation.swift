extension PhotoProcessor {
    /// The part of a clip or animated image that is made into a sticker, and its limits: the first
    /// 3 seconds, at most 90 frames and 30 a second, each frame within the pixel limit and reduced to
    /// the working size.
    public var animationWindow: AnimationWindow {
        AnimationWindow(maxPixels: decodeOptions.maxPixels, workingSize: decodeOptions.workingSize)
    }

    /// A clip or animated image through the pipeline: its frames decoded, cut out without flicker
    /// (``ClipCutter``) and kept as an ``AnimatedSticker``, the first frame as the still sticker.
    /// `box` (upright pixels of the first frame) picks the subject and follows it.
    /// What the decode learned (format, upright size) is kept when a later stage fails.
    /// `part` is the entry's part of the source, kept on the result for the catalog to store.
    func animatedAttempt(_ bytes: [UInt8], format: AnimationFormat, box: CutoutGuidance.Box? = nil, part: ClipWindow) async -> ProcessingAttempt {
        let decoded: DecodedAnimation
        do throws(ProcessingError) {
            let window = animationWindow.taking(part)
            decoded = try StageClock.measure(.decode) { () throws(ProcessingError) in try AnimationDecoder.decode(bytes, window: window) }
        } catch {
            return ProcessingAttempt(facts: nil, warnings: [], result: .failure(error))
        }
        let facts = PhotoFacts(format: format.recordedFormat, width: decoded.width, height: decoded.height, exif: decoded.exif)
        do throws(ProcessingError) {
            let cutter = ClipCutter(
                style: settings.style, paletteColors: settings.paletteColors, workingSize: decodeOptions.workingSize, segmenter: segmenter)
            if box != nil {
                do {
                    try CutoutGuidance(box: box).validate(width: decoded.width, height: decoded.height)
                } catch {
                    throw .invalidGuidance(error.description)
                }
            }
            let clip = try await cutter.cut(decoded.frames.map(\.image), box: box, upright: (decoded.width, decoded.height))
            let durations = decoded.frames.map(\.durationMilliseconds)
            let animation = try StageClock.measure(.encode) { () throws(ProcessingError) in
                try AnimatedSticker(frames: clip.frames, durations: durations)
            }
            let first = try StageClock.measure(.encode) { () throws(ProcessingError) in try PNGCodec.encode(clip.frames[0]) }
            let processed = ProcessedPhoto(
                format: facts.format, width: facts.width, height: facts.height, exif: facts.exif,
                sticker: StickerImage(png: first, width: clip.frames[0].width, height: clip.frames[0].height),
                palette: clip.palette, pipelineVersion: Self.pipelineVersion, settings: settings, signature: clip.signature,
                animation: animation, clip: part)
            return ProcessingAttempt(facts: facts, warnings: [], result: .success(processed))
        } catch {
            return ProcessingAttempt(facts: facts, warnings: [], result: .failure(error))
        }
    }
}
