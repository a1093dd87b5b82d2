/// The rules for a pack's title and author.
public enum PackText {
    /// Longest title and author accepted (WhatsApp's limit for both, the largest of the platforms').
    public static let maxLength = 128

    /// Refuses an empty text (unless `allowEmpty`), one over ``maxLength`` characters, and control characters.
    static func validate(_ text: String, field: String, allowEmpty: Bool) throws(PackError) {
        if text.isEmpty && !allowEmpty { throw .invalidValue(field: field, reason: "it is empty") }
        if text.count > maxLength {
            throw .invalidValue(field: field, reason: "it is \(text.count) characters long, the limit is \(maxLength)")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidValue(field: field, reason: "it contains a control character (a line break, a tab or NUL)")
        }
    }
}
