/// The emoji of a pack's sticker: 1-20 emoji (Telegram's maximum, the largest any platform takes),
/// stored as one string; exports take as many as their platform allows (WhatsApp 3, Signal 1).
public enum StickerEmoji {
    /// What a sticker gets when none is given.
    public static let defaultEmoji = "🙂"
    public static let maxCount = 20

    /// The emoji of `text` (whitespace between them allowed), each one grapheme; throws when there
    /// are none, too many, or something that is not an emoji.
    public static func parse(_ text: String) throws(PackError) -> [String] {
        let characters = text.filter { !$0.isWhitespace }.map(String.init)
        guard !characters.isEmpty else { throw .invalidValue(field: "emoji", reason: "it is empty") }
        guard characters.count <= maxCount else {
            throw .invalidValue(field: "emoji", reason: "\(characters.count) emoji, the most a sticker takes is \(maxCount)")
        }
        if let bad = characters.first(where: { !isEmoji($0) }) {
            throw .invalidValue(field: "emoji", reason: "'\(bad)' is not an emoji")
        }
        return characters
    }

    /// The stored emoji string split into emoji.
    public static func split(_ stored: String) -> [String] {
        let parts = stored.filter { !$0.isWhitespace }.map(String.init)
        return parts.isEmpty ? [defaultEmoji] : parts
    }

    /// One grapheme that is an emoji: it has a scalar shown as emoji by default, or starts with an
    /// emoji scalar outside Latin-1 (🏖 is typed without U+FE0F as often as with it), or with one
    /// followed by the emoji variation selector (U+FE0F), or is a keycap sequence. Plain digits,
    /// `#`, `*`, © and ® (emoji only with U+FE0F) are not.
    static func isEmoji(_ grapheme: String) -> Bool {
        let scalars = Array(grapheme.unicodeScalars)
        guard let first = scalars.first else { return false }
        if scalars.contains(where: { $0.properties.isEmojiPresentation }) { return true }
        if first.properties.isEmoji && (first.value > 0xFF || scalars.contains("\u{FE0F}")) { return true }
        return scalars.contains("\u{20E3}") && scalars.count > 1
    }
}
