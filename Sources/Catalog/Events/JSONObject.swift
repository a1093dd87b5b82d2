/// A value whose JSON object is written from one list of keys and values. The catalog's JSON has every
/// key, with `null` for what is unknown (docs/json.md), where Swift's synthesised encoder leaves a nil key
/// out; and some keys are renamed or computed. One list says all of it, and one encoder writes it.
public protocol JSONObject: Encodable {
    /// The keys with their values, in order; a nil value is written as `null` (leave a key out of the
    /// list to leave it out of the object).
    var jsonFields: [JSONField] { get }
}

/// One key of a ``JSONObject`` and its value.
public typealias JSONField = (key: String, value: any Encodable)

extension JSONObject {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        for field in jsonFields {
            try container.encode(field.value, forKey: FieldKey(field.key))
        }
    }
}

/// The field for `key` when there is a value, none when not: for a key the JSON leaves out rather
/// than writing `null` (the few optional keys of docs/json.md).
func fieldIfPresent<Value: Encodable>(_ key: String, _ value: Value?) -> [JSONField] {
    value.map { [(key, $0)] } ?? []
}

/// A nested object of a ``JSONObject`` that has no type of its own (the `exif` of an entry's detail).
struct JSONFields: JSONObject {
    let jsonFields: [JSONField]

    init(_ fields: [JSONField]) { jsonFields = fields }
}

/// A key named at run time.
private struct FieldKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
