/// One result of `catalog search --json` (and `GET /api/search`): the match that sets the score.
/// JSON: `{"id","path","distance","color","share"}`, distance to 2 decimals, share to 4.
public struct ColorSearchHit: Sendable, Equatable, Encodable {
    public let id: Int64
    public let path: String
    public let distance: Double
    public let color: String
    public let share: Double

    public init(_ result: ColorSearchResult) {
        let match = result.deciding
        id = result.id
        path = result.path
        distance = (match.distance * 100).rounded() / 100
        color = match.hex
        share = (match.share * 10_000).rounded() / 10_000
    }
}

extension ColorQuery {
    /// The form `taken_at_utc` compares with: the text without a trailing `Z`, when it is a date
    /// (`YYYY-MM-DD`) or date-time (`YYYY-MM-DDTHH:MM[:SS[.fff]]`); nil when it is neither.
    public static func timeBound(_ text: String) -> String? {
        let value = text.hasSuffix("Z") ? String(text.dropLast()) : text
        let pattern = /\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?/
        return value.wholeMatch(of: pattern) == nil ? nil : value
    }
}
