/// The rule for pack names. A name becomes part of file and folder names on export
/// (`beach.wastickers`, `beach.stickerpack`) and is typed in shells, so it is kept to a portable
/// set: 1-64 ASCII letters, digits, `-`, `_` and `.`, starting with a letter or digit. That rules
/// out `..`, `/`, NUL, hidden files, and Unicode look-alikes of `/` and `.` in one go.
public enum PackName {
    public static let maxLength = 64
    public static let rule = "A pack name is 1-\(maxLength) characters: ASCII letters, digits, '-', '_' and '.', starting with a letter or digit."

    /// Throws `.invalidName` with the first problem found.
    public static func validate(_ name: String) throws(PackError) {
        let scalars = Array(name.unicodeScalars)
        guard !scalars.isEmpty else { throw .invalidName(name, reason: "it is empty") }
        guard scalars.count <= maxLength else {
            throw .invalidName(name, reason: "it is \(scalars.count) characters long, the limit is \(maxLength)")
        }
        if let bad = scalars.first(where: { !isAllowed($0) }) {
            let shown = bad.value < 0x20 || bad.value == 0x7F ? "control character U+\(hex(bad.value))" : "'\(bad)' (U+\(hex(bad.value)))"
            throw .invalidName(name, reason: "it contains \(shown)")
        }
        guard let first = scalars.first, isAlphanumeric(first) else {
            throw .invalidName(name, reason: "it starts with '\(scalars[0])'")
        }
    }

    /// Whether `name` follows the rule.
    public static func isValid(_ name: String) -> Bool {
        (try? validate(name)) != nil
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        isAlphanumeric(scalar) || scalar == "-" || scalar == "_" || scalar == "."
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
