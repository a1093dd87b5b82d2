import Foundation

/// The JSON the catalog stores in text columns (`settings_json`, `tags_json`): sorted keys, so the
/// same value is always the same text and rows compare as strings.
enum CatalogJSON {
    /// `value` as sorted-keys JSON text.
    static func string(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The value stored as JSON `text`.
    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
