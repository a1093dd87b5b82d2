/// Turns a photo's bytes into a `ProcessedPhoto`: decode (scaled), orient, make the sticker, take the palette.
/// Pipeline version 0: the sticker is the oriented photo scaled to `settings.size` on its long side,
/// and the palette is taken from it (the cut-out stage replaces the whole photo by the subject).
public nonisolated struct PhotoProcessor: Sendable {
    /// The version of the pipeline this binary runs; entries made by an older one are stale.
    public static let pipelineVersion = 0

    public var settings: StickerSettings
    public var decodeOptions: DecodeOptions

    public init(settings: StickerSettings = .default, maxPixels: Int = DecodeOptions.defaultMaxPixels) {
        self.settings = settings
        // Decode at twice the sticker size: enough for resampling without aliasing, far less than 12 MP.
        self.decodeOptions = DecodeOptions(maxPixels: maxPixels, workingSize: settings.size * 2)
    }

    /// Runs the whole pipeline off the caller's actor; CPU-bound, so callers bound how many run at once.
    @concurrent
    public func process(_ bytes: [UInt8]) async throws(ProcessingError) -> ProcessedPhoto {
        let decoded = try PhotoDecoder.decode(bytes, options: decodeOptions)
        let stickerPixels = ImageResizer.fitted(decoded.image, longSide: settings.size)
        // The palette needs only the pixels the renderer gets: it is computed while the sticker is encoded.
        async let palette = PaletteExtractor.palette(of: stickerPixels, colors: settings.paletteColors)
        let png = try PNGCodec.encode(stickerPixels)
        return ProcessedPhoto(
            format: decoded.format,
            width: decoded.width,
            height: decoded.height,
            exif: decoded.exif,
            sticker: StickerImage(png: png, width: stickerPixels.width, height: stickerPixels.height),
            palette: await palette,
            pipelineVersion: Self.pipelineVersion,
            settings: settings
        )
    }
}
