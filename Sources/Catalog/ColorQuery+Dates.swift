extension ColorQuery {
    /// The forms `--taken-after`, `--taken-before` and the API's `taken-after`/`taken-before` accept.
    public static let acceptedDates = "YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (UTC, an optional Z), a real date such as 2024-06-30"

    /// The form `taken_at_utc` compares with: the text without a trailing `Z`, when it is a real
    /// date (`YYYY-MM-DD`) or date-time (`YYYY-MM-DDTHH:MM[:SS[.fff]]`); nil otherwise. Checked for
    /// real (no month 13, no 30 February), because an impossible date would silently match nothing.
    public static func timeBound(_ text: String) -> String? {
        let value = text.hasSuffix("Z") ? String(text.dropLast()) : text
        let pattern = /(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?/
        guard let match = value.wholeMatch(of: pattern),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        if let hour = match.4.flatMap({ Int($0) }), !(0...23).contains(hour) { return nil }
        if let minute = match.5.flatMap({ Int($0) }), !(0...59).contains(minute) { return nil }
        if let second = match.6.flatMap({ Int($0) }), !(0...60).contains(second) { return nil }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
