import Processing

/// One setting as `catalog config list --json` and `GET /api/settings` show it.
/// JSON: `{"key","value","default","description"}`, numbers and booleans as such.
public struct SettingDescription: Sendable, Equatable, Encodable {
    public let key: String
    public let value: Value
    public let defaultValue: Value
    public let description: String

    public init(_ setting: CatalogSetting, _ settings: StickerSettings) {
        key = setting.rawValue
        value = Value(setting.value(in: settings))
        defaultValue = Value(setting.defaultValue)
        description = setting.summary
    }

    /// Every setting, in the order `CatalogSetting` lists them.
    public static func all(_ settings: StickerSettings) -> [SettingDescription] {
        CatalogSetting.allCases.map { SettingDescription($0, settings) }
    }

    private enum CodingKeys: String, CodingKey {
        case key, value, description
        case defaultValue = "default"
    }

    /// A setting's text as the JSON type it stands for.
    public struct Value: Sendable, Equatable, Encodable {
        public let text: String
        public init(_ text: String) { self.text = text }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let number = Int(text) {
                try container.encode(number)
            } else if let flag = Bool(text) {
                try container.encode(flag)
            } else {
                try container.encode(text)
            }
        }
    }
}
