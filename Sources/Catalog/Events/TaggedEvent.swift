/// One JSON object of a run's `--json` output: `{"event": NAME, ...fields}`. The events and summaries
/// of import, enqueue, reprocess, work and copy all have this shape, so they share one encoder
/// (``JSONObject``'s) and each says only its name and its fields.
public protocol TaggedEvent: JSONObject {
    /// The value of the `event` key (`imported`, `failed`, `summary`, ...).
    var eventName: String { get }
    /// The other keys with their values; a nil value is written as null (absent values are never
    /// missing keys), and the JSON output sorts the keys.
    var eventFields: [JSONField] { get }
}

/// The `error` or `reason` object of an event: `{"code": ..., "message": ...}`.
public struct EventProblem: Encodable, Sendable, Equatable {
    public let code: String
    public let message: String
}

extension TaggedEvent {
    public var jsonFields: [JSONField] { [("event", eventName)] + eventFields }
}
