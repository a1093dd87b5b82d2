import Processing

/// One setting as `catalog config list --json` and `GET /api/settings` show it.
/// JSON: `{"key","value","default","description"}`, numbers and booleans as such, and `"runs"` when the
/// value alone does not say what this machine runs (`cutout.precision` `auto`: `"fp32 on AVX-512"`).
public struct SettingDescription: Sendable, Equatable, Encodable {
    public let key: String
    public let value: Value
    public let defaultValue: Value
    public let description: String
    /// What the value runs on this machine, when the value alone does not say (``CatalogSetting/note(for:)``).
    public let runs: String?

    public init(_ setting: CatalogSetting, _ values: SettingValues) {
        key = setting.rawValue
        value = Value(values[setting])
        defaultValue = Value(setting.defaultValue)
        description = setting.summary
        runs = setting.note(for: values[setting])
    }

    /// Every setting, in the order `CatalogSetting` lists them.
    public static func all(_ values: SettingValues) -> [SettingDescription] {
        CatalogSetting.allCases.map { SettingDescription($0, values) }
    }

    private enum CodingKeys: String, CodingKey {
        case key, value, description, runs
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
