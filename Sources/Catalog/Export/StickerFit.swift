import Processing

/// One sticker made for a platform: its file, or (bytes nil) the smallest size any encoding reached,
/// and for a moving sticker what it became. A plain export's APNG rides along as a companion.
struct FittedSticker: Sendable {
    /// The file's bytes; nil when nothing fitted.
    var file: [UInt8]?
    var fileExtension: String
    var width, height, bytes: Int
    var encoding: String
    var motion: ExportReport.Motion?
    /// Files written beside the sticker (a plain export's APNG), with their own fit.
    var companions: [FittedSticker] = []

    init(_ file: EncodedImage, width: Int, height: Int) {
        self.init(file: file.bytes, fileExtension: file.type.fileExtension, width: width, height: height, bytes: file.bytes.count, encoding: file.encoding)
    }

    init(tooLarge smallest: Int, encoding: String, fileExtension: String, width: Int, height: Int, motion: ExportReport.Motion? = nil) {
        self.init(file: nil, fileExtension: fileExtension, width: width, height: height, bytes: smallest, encoding: encoding, motion: motion)
    }

    init(_ animation: FittedAnimation, width: Int, height: Int) {
        let motion = ExportReport.Motion(
            frames: animation.frames, frameRate: (animation.frameRate * 100).rounded() / 100,
            durationMs: animation.milliseconds, steps: animation.steps)
        self.init(
            file: animation.bytes, fileExtension: animation.type.fileExtension, width: width, height: height,
            bytes: animation.bytes.count, encoding: animation.encoding, motion: motion)
    }

    private init(file: [UInt8]?, fileExtension: String, width: Int, height: Int, bytes: Int, encoding: String, motion: ExportReport.Motion? = nil) {
        (self.file, self.fileExtension, self.width, self.height) = (file, fileExtension, width, height)
        (self.bytes, self.encoding, self.motion) = (bytes, encoding, motion)
    }
}

/// How each sticker is fitted to a platform: still stickers by ``ByteBudgetEncoder``, moving ones
/// by ``AnimatedBudgetEncoder``, both on the platform's canvas.
enum StickerFit {
    /// `item` for `limits`: moving when `animated` (the item has an animation and the platform's set
    /// takes it), with a plain export's APNG beside the still.
    @concurrent
    static func fit(_ item: PackSource.Item, limits: PlatformLimits, animated: Bool) async -> Result<FittedSticker, ExportError> {
        do throws(ProcessingError) {
            guard animated, let animation = item.animation else { return .success(try still(item, limits: limits)) }
            let rule = limits.animation
            if rule.besideStill {
                var fitted = try still(item, limits: limits)
                fitted.companions = [try moving(item, animation: animation, rule: rule, limits: limits)]
                return .success(fitted)
            }
            return .success(try moving(item, animation: animation, rule: rule, limits: limits))
        } catch {
            return .failure(.unreadableSticker(id: item.id, reason: error.errorDescription ?? error.code))
        }
    }

    /// The still sticker on the platform's canvas, encoded to fit its byte limit.
    static func still(_ item: PackSource.Item, limits: PlatformLimits) throws(ProcessingError) -> FittedSticker {
        let stored = EncodedImage(bytes: item.png, type: .png, encoding: "stored")
        guard let placement = limits.canvas.placement(width: item.width, height: item.height, fullSize: item.fullSize) else {
            return FittedSticker(stored, width: item.width, height: item.height)
        }
        // A stored PNG already the right size and under the limit goes out as it is.
        let unchanged = CanvasPlacement(canvasWidth: item.width, canvasHeight: item.height, width: item.width, height: item.height)
        if placement == unchanged, limits.fileTypes.contains(.png), item.png.count <= limits.maxBytes ?? .max {
            return FittedSticker(stored, width: item.width, height: item.height)
        }
        let image = try PNGCodec.decode(item.png, maxPixels: 64_000_000)
        let canvas = placement.place(image)
        switch try ByteBudgetEncoder.encode(canvas, types: limits.fileTypes, maxBytes: limits.maxBytes) {
        case .fits(let file):
            return FittedSticker(file, width: canvas.width, height: canvas.height)
        case .tooLarge(let smallest, let encoding):
            let type = limits.fileTypes[0].fileExtension
            return FittedSticker(tooLarge: smallest, encoding: encoding, fileExtension: type, width: canvas.width, height: canvas.height)
        }
    }

    /// The moving sticker on the platform's canvas, within its running time and frame rate, and
    /// encoded to fit its byte limit.
    static func moving(
        _ item: PackSource.Item, animation: AnimatedSticker, rule: AnimatedRule, limits: PlatformLimits
    ) throws(ProcessingError) -> FittedSticker {
        // The platform's time and rate rules first, so only the frames kept are scaled.
        let stored = try animation.clip()
        let clip = rule.limits.applied(to: stored)
        let placement = limits.canvas.placement(width: item.width, height: item.height, fullSize: item.fullSize)
            ?? CanvasPlacement(canvasWidth: item.width, canvasHeight: item.height, width: item.width, height: item.height)
        let placed = try clip.mapFrames { frame throws(ProcessingError) in placement.place(frame) }
        let width = placement.canvasWidth, height = placement.canvasHeight
        switch try AnimatedBudgetEncoder.encode(placed, as: rule.fileType, limits: rule.limits, original: .init(stored)) {
        case .fits(let fitted):
            return FittedSticker(fitted, width: width, height: height)
        case .tooLarge(let smallest, let encoding, let steps):
            let motion = ExportReport.Motion(
                frames: placed.frames.count, frameRate: (placed.frameRate * 100).rounded() / 100, durationMs: placed.milliseconds, steps: steps)
            return FittedSticker(
                tooLarge: smallest, encoding: encoding, fileExtension: rule.fileType.fileExtension, width: width, height: height, motion: motion)
        }
    }

    /// The icon (tray, thumbnail) made from `item`: fitted to its square, PNG under its limit.
    static func icon(_ rule: IconRule?, from item: PackSource.Item) throws(ExportError) -> (rule: IconRule, file: EncodedImage?, smallest: Int)? {
        guard let rule else { return nil }
        do {
            let image = try PNGCodec.decode(item.png, maxPixels: 64_000_000)
            let canvas = CanvasFitter.onCanvas(image, width: rule.side, height: rule.side)
            switch try ByteBudgetEncoder.encode(canvas, types: [.png], maxBytes: rule.maxBytes) {
            case .fits(let file): return (rule, file, file.bytes.count)
            case .tooLarge(let smallest, _): return (rule, nil, smallest)
            }
        } catch {
            throw .unreadableSticker(id: item.id, reason: error.errorDescription ?? error.code)
        }
    }
}
