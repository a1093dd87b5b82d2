/// One JSON object of a run's `--json` output: `{"event": NAME, ...fields}`. The events and summaries
/// of import, enqueue, reprocess, work and copy all have this shape, so they share this one encoder and
/// each says only its name and its fields.
public protocol TaggedEvent: Encodable {
    /// The value of the `event` key (`imported`, `failed`, `summary`, ...).
    var eventName: String { get }
    /// The other keys with their values; a nil value is written as null (absent values are never
    /// missing keys), and the JSON output sorts the keys.
    var eventFields: [EventField] { get }
}

/// One key of a ``TaggedEvent`` and its value.
public typealias EventField = (key: String, value: any Encodable)

/// The `error` or `reason` object of an event: `{"code": ..., "message": ...}`.
public struct EventProblem: Encodable, Sendable, Equatable {
    public let code: String
    public let message: String
}

extension TaggedEvent {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EventKey.self)
        try container.encode(eventName, forKey: EventKey("event"))
        for field in eventFields {
            try container.encode(field.value, forKey: EventKey(field.key))
        }
    }
}

/// A key named at run time.
private struct EventKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
