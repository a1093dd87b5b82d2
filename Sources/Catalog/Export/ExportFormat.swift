import Processing

/// Where an export goes.
public enum ExportFormat: String, CaseIterable, Sendable, Codable {
    case telegram, whatsapp, signal, imessage, png, zip
}

/// The pixel size a platform wants.
public enum CanvasRule: Sendable, Equatable {
    /// The stored sticker, untouched.
    case asStored
    /// Scaled so one side is exactly `side` and the other at most `side`, no padding.
    case longSide(Int)
    /// Scaled to fit and centred on a transparent `side` x `side` square.
    case square(Int)

    /// The rule in words, for messages and fit reports.
    public var summary: String {
        switch self {
        case .asStored: "as stored"
        case .longSide(let side): "one side \(side), the other ≤ \(side)"
        case .square(let side): "\(side)×\(side)"
        }
    }
}

/// A small extra image a platform asks for (tray icon, set thumbnail).
public struct IconRule: Sendable, Equatable {
    /// The file name inside the export.
    public var file: String
    public var side: Int
    public var maxBytes: Int
}

/// What a platform takes for moving stickers (clips, GIFs, animated WebP and APNG in the catalog).
public struct AnimatedRule: Sendable, Equatable {
    public var fileType: AnimatedFileType
    public var limits: AnimationLimits
    /// A set holds either still or moving stickers, not both: a mixed pack is exported as two sets.
    public var separateSets: Bool
    /// The moving sticker goes beside the still one (`NNN-ID.apng` beside `NNN-ID.png`), which stays
    /// the pack's sticker: plain exports, for people and programs that want both.
    public var besideStill: Bool
}

/// Everything one platform requires of a pack. Byte limits are decimal and conservative
/// (1 KB = 1,000 bytes: platforms have rejected files that passed a 1,024-based check).
public struct PlatformLimits: Sendable, Equatable {
    public var format: ExportFormat
    /// Acceptable sticker file types, preferred first.
    public var fileTypes: [ImageFileType]
    public var canvas: CanvasRule
    /// The largest sticker file, in bytes, inclusive; nil when there is no limit.
    public var maxBytes: Int?
    /// How many stickers one pack may hold; nil when there is no limit.
    public var stickersPerPack: ClosedRange<Int>?
    /// How many emoji each sticker carries (the first ones are kept); nil when none are exported.
    public var emojiPerSticker: ClosedRange<Int>?
    public var icon: IconRule?
    /// The longest pack title, in characters; nil when there is no limit.
    public var maxTitleLength: Int?
    /// Where the rule is published.
    public var source: String
    /// How moving stickers are exported.
    public var animation: AnimatedRule

    /// The limits of `format`.
    public static func of(_ format: ExportFormat) -> PlatformLimits {
        table.first { $0.format == format }!
    }

    /// Every limit of every format, in one place.
    public static let table: [PlatformLimits] = [
        // Telegram, https://core.telegram.org/stickers#static-stickers-and-emoji: "The image file must
        // be in either .PNG or .WEBP format ... one side must be exactly 512 pixels and the other
        // 512 pixels or less ... The image file size must not exceed 512 KB." Bot API
        // (https://core.telegram.org/bots/api#inputsticker, #createnewstickerset,
        // #setstickersetthumbnail): "List of 1-20 emoji", a regular set holds up to 120 stickers,
        // title 1-64 characters, thumbnail "a .WEBP or .PNG image with the thumbnail, must be up to
        // 128 kilobytes in size and have a width and height of exactly 100px".
        PlatformLimits(
            format: .telegram, fileTypes: [.png, .webp], canvas: .longSide(512), maxBytes: 512_000,
            stickersPerPack: 1...120, emojiPerSticker: 1...20,
            icon: IconRule(file: "thumbnail.png", side: 100, maxBytes: 128_000), maxTitleLength: 64,
            source: "https://core.telegram.org/stickers, https://core.telegram.org/bots/api#createnewstickerset",
            // https://core.telegram.org/stickers#video-stickers-and-emoji: "the video must be in .WEBM
            // format encoded with the VP9 codec ... one side must be exactly 512 pixels ... Video
            // duration must not exceed 3 seconds ... Frame rate can be up to 30 FPS ... Video must be
            // looped ... Video size should not exceed 256 KB ... Video must have no audio stream";
            // addStickerToSet: "The format of the added sticker must match the format of the other
            // stickers in the set".
            animation: AnimatedRule(
                fileType: .webm, limits: AnimationLimits(maxBytes: 256_000, maxMilliseconds: 3_000, maxFrameRate: 30),
                separateSets: true, besideStill: false)
        ),
        // WhatsApp, https://github.com/WhatsApp/stickers/blob/main/Android/README.md ("Sticker art
        // and app requirements"): stickers "must be exactly 512x512 pixels", WebP, "less than
        // 100 KB"; tray image "96x96 pixels", PNG, "less than 50 KB"; "Sticker packs must have a
        // minimum of 3 stickers and a maximum of 30"; "up to 3 emojis" a sticker; name and
        // publisher up to 128 characters.
        PlatformLimits(
            format: .whatsapp, fileTypes: [.webp], canvas: .square(512), maxBytes: 100_000,
            stickersPerPack: 3...30, emojiPerSticker: 1...3,
            icon: IconRule(file: "tray.png", side: 96, maxBytes: 50_000), maxTitleLength: 128,
            source: "https://github.com/WhatsApp/stickers/blob/main/Android/README.md",
            // The same README, "Animated sticker requirements": animated WebP, 512x512, "less than
            // 500 KB", "the maximum duration ... is 10 seconds", "frame duration ... at least 8 ms",
            // and "a sticker pack ... cannot contain both static and animated stickers".
            animation: AnimatedRule(
                fileType: .webp, limits: AnimationLimits(maxBytes: 500_000, maxMilliseconds: 10_000, maxFrameRate: nil, minFrameMilliseconds: 8),
                separateSets: true, besideStill: false)
        ),
        // Signal, https://support.signal.org/hc/en-us/articles/360031836512-Stickers ("Sticker
        // requirements"): static stickers PNG or WebP, 512x512 px, max 300 kB each, up to 200
        // stickers a pack, one emoji per sticker; a pack has a title, an author and a cover.
        PlatformLimits(
            format: .signal, fileTypes: [.png, .webp], canvas: .square(512), maxBytes: 300_000,
            stickersPerPack: 1...200, emojiPerSticker: 1...1, icon: nil, maxTitleLength: nil,
            source: "https://support.signal.org/hc/en-us/articles/360031836512-Stickers",
            // The same page: animated stickers are APNG, 512x512, at most 300 kB and 3 seconds; a
            // pack may mix them with still ones.
            animation: AnimatedRule(
                fileType: .apng, limits: AnimationLimits(maxBytes: 300_000, maxMilliseconds: 3_000, maxFrameRate: nil),
                separateSets: false, besideStill: false)
        ),
        // iMessage, Apple's Human Interface Guidelines, "iMessage apps and stickers"
        // (https://developer.apple.com/design/human-interface-guidelines/imessage-apps-and-stickers):
        // PNG stickers "no larger than 500 KB" (kept strictly under), square at the small 300x300,
        // regular 408x408 or large 618x618 size of the sticker browser; we write the regular size.
        PlatformLimits(
            format: .imessage, fileTypes: [.png], canvas: .square(408), maxBytes: 499_999,
            stickersPerPack: nil, emojiPerSticker: nil, icon: nil, maxTitleLength: nil,
            source: "https://developer.apple.com/design/human-interface-guidelines/imessage-apps-and-stickers",
            // The same guidelines: animated stickers are APNG (or GIF) under the same 500 KB.
            animation: AnimatedRule(
                fileType: .apng, limits: AnimationLimits(maxBytes: 499_999, maxMilliseconds: nil, maxFrameRate: nil),
                separateSets: false, besideStill: false)
        ),
        // Plain exports: the stored PNGs, no platform to satisfy.
        PlatformLimits(
            format: .png, fileTypes: [.png], canvas: .asStored, maxBytes: nil,
            stickersPerPack: nil, emojiPerSticker: nil, icon: nil, maxTitleLength: nil, source: "-",
            animation: .plain
        ),
        PlatformLimits(
            format: .zip, fileTypes: [.png], canvas: .asStored, maxBytes: nil,
            stickersPerPack: nil, emojiPerSticker: nil, icon: nil, maxTitleLength: nil, source: "-",
            animation: .plain
        ),
    ]

    /// The sticker sizes iMessage's sticker browser shows (small, regular, large).
    public static let iMessageSizes = [300, 408, 618]
}

extension AnimatedRule {
    /// Plain exports: the first frame as the sticker, the whole animation as an APNG beside it.
    static let plain = AnimatedRule(
        fileType: .apng, limits: AnimationLimits(maxBytes: nil, maxMilliseconds: nil, maxFrameRate: nil),
        separateSets: false, besideStill: true)
}
