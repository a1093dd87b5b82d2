/// A number with its noun in the matching form ("1 pack", "2 packs", "0 entries"), for the counts that
/// messages and reports print.
public struct Counted: CustomStringConvertible, Sendable {
    public let count: Int
    public let singular: String
    public let plural: String

    /// `plural` defaults to `singular` + "s"; irregular nouns name theirs ("entry", plural: "entries").
    public init(_ count: some BinaryInteger, _ singular: String, plural: String? = nil) {
        self.count = Int(clamping: count)
        self.singular = singular
        self.plural = plural ?? singular + "s"
    }

    public var description: String { "\(count) \(count == 1 ? singular : plural)" }

    /// "1 entry", "3 entries".
    public static func entries(_ count: some BinaryInteger) -> Counted { Counted(count, "entry", plural: "entries") }
}
