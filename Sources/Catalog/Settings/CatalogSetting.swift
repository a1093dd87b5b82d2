import Processing

/// A catalog-wide setting (`catalog config`): its key, default, allowed values and where it goes in
/// ``StickerSettings``. Stored as text in the `setting` table; a key never set has its default.
public enum CatalogSetting: String, CaseIterable, Sendable {
    case paletteColors = "palette.colors"
    case stickerSize = "sticker.size"
    case stickerOutline = "sticker.outline"
    case stickerShadow = "sticker.shadow"
    case cutoutModel = "cutout.model"
    case cutoutPrecision = "cutout.precision"

    /// Long sides a sticker may have: 128 px is the smallest any sticker platform shows well, and 2048
    /// keeps the decode (at twice the size) and the stored PNG reasonable.
    public static let stickerSizes = 128...2048
    /// Outline widths (pixels at a 512-pixel sticker): beyond 64 the outline swallows the subject.
    public static let outlineWidths = 0...64
    /// Palette sizes.
    public static let paletteSizes = 1...16

    /// One line for `config list` and help.
    public var summary: String {
        switch self {
        case .paletteColors: "dominant colours kept per sticker (\(Self.paletteSizes.lowerBound)-\(Self.paletteSizes.upperBound))"
        case .stickerSize: "long side of a sticker in pixels (\(Self.stickerSizes.lowerBound)-\(Self.stickerSizes.upperBound))"
        case .stickerOutline: "white outline width in pixels at 512 px, 0 for none (\(Self.outlineWidths.lowerBound)-\(Self.outlineWidths.upperBound))"
        case .stickerShadow: "a soft shadow under the sticker (true or false)"
        case .cutoutModel: "the segmentation model that cuts subjects out (\(CutoutModel.allCases.map { "\($0.rawValue): \($0.summary)" }.joined(separator: "; ")))"
        case .cutoutPrecision: "the arithmetic of the cut-out network: \(Self.precisionChoices)"
        }
    }

    /// What `cutout.precision` and `--precision` may say, in one line for help.
    public static let precisionChoices =
        "auto (fp32 for now), fp32 (the reference) or int8 (faster where the CPU has VNNI, the same stickers on every CPU, masks a little off fp32's)"

    /// The value of this setting in `settings`, as text. For `cutout.precision` that is the precision
    /// `settings` make stickers with (`auto` resolved); what the user stored is in ``SettingValues``.
    public func value(in settings: StickerSettings) -> String {
        switch self {
        case .paletteColors: String(settings.paletteColors)
        case .stickerSize: String(settings.size)
        case .stickerOutline: String(settings.outline)
        case .stickerShadow: String(settings.shadow)
        case .cutoutModel: settings.model.rawValue
        case .cutoutPrecision: settings.precision.rawValue
        }
    }

    /// The default value, as text (`auto` for `cutout.precision`, not what it runs on this machine).
    public var defaultValue: String {
        self == .cutoutPrecision ? PrecisionSetting.default.rawValue : value(in: .default)
    }

    /// What the stored value `text` runs on this machine, when the text alone does not say:
    /// `fp32 on AVX-512` for `cutout.precision` `auto`; nil for every other value.
    public func note(for text: String) -> String? {
        guard self == .cutoutPrecision, PrecisionSetting.named(text) == .auto else { return nil }
        let precision = PrecisionSetting.auto.resolved
        return "\(precision.rawValue) on \(precision.instructions())"
    }

    /// `settings` with this setting set to `text`, or why `text` is not allowed.
    public func applying(_ text: String, to settings: StickerSettings) throws(SettingError) -> StickerSettings {
        var settings = settings
        switch self {
        case .paletteColors: settings.paletteColors = try integer(text, in: Self.paletteSizes)
        case .stickerSize: settings.size = try integer(text, in: Self.stickerSizes)
        case .stickerOutline: settings.outline = try integer(text, in: Self.outlineWidths)
        case .stickerShadow:
            switch text {
            case "true": settings.shadow = true
            case "false": settings.shadow = false
            default: throw SettingError.invalidValue(key: rawValue, value: text, expected: "true or false")
            }
        case .cutoutModel:
            guard let model = CutoutModel.named(text) else {
                throw SettingError.invalidValue(key: rawValue, value: text, expected: CutoutModel.choices)
            }
            settings.model = model
        case .cutoutPrecision:
            guard let precision = PrecisionSetting.named(text) else {
                throw SettingError.invalidValue(key: rawValue, value: text, expected: PrecisionSetting.choices)
            }
            settings.precision = precision.resolved
        }
        return settings
    }

    /// The setting named `key`, or `.unknownKey`.
    public static func named(_ key: String) throws(SettingError) -> CatalogSetting {
        guard let setting = CatalogSetting(rawValue: key) else { throw SettingError.unknownKey(key) }
        return setting
    }

    private func integer(_ text: String, in range: ClosedRange<Int>) throws(SettingError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw SettingError.invalidValue(
                key: rawValue, value: text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return value
    }
}

/// A `catalog config` key or value that is not allowed (a usage error: exit 64).
public enum SettingError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownKey(String)
    case invalidValue(key: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .unknownKey(let key):
            "unknown setting '\(key)'; the settings are \(CatalogSetting.allCases.map(\.rawValue).joined(separator: ", "))"
        case .invalidValue(let key, let value, let expected):
            "invalid value '\(value)' for \(key): expected \(expected)"
        }
    }
}

extension CatalogSetting {
    /// `text` as stored: validated and normalised ("08" is stored as "8"). A precision is kept as said:
    /// `auto` is resolved by the machine that runs each job, which need not be the one that set it.
    public func canonical(_ text: String) throws(SettingError) -> String {
        let settings = try applying(text, to: .default)
        return self == .cutoutPrecision ? text : value(in: settings)
    }
}
