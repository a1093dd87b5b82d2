import Foundation

/// The catalog's timestamps: ISO 8601 text in UTC (`2024-05-01T10:34:56Z`), which sorts as it reads.
enum Timestamp {
    /// The current time.
    static func now() -> String {
        string(from: Date())
    }

    /// `date` as ISO 8601 UTC, to the second.
    static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    /// `taken_at_utc` for an EXIF date taken: converted to UTC when it carries an offset
    /// (`2024-05-01T12:34:56+02:00` → `2024-05-01T10:34:56Z`, fractional seconds kept),
    /// returned as is when it has none (the camera's local time is all we know) or cannot be parsed.
    static func utc(fromTakenAt takenAt: String) -> String {
        guard let parsed = ParsedTakenAt(takenAt), let offset = parsed.offsetSeconds else { return takenAt }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        guard let local = calendar.date(from: parsed.components) else { return takenAt }
        let utc = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: local - Double(offset))
        guard let year = utc.year, let month = utc.month, let day = utc.day,
              let hour = utc.hour, let minute = utc.minute, let second = utc.second
        else { return takenAt }
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
            + parsed.fraction + "Z"
    }
}

/// `yyyy-MM-ddTHH:mm:ss[.fff][Z|±HH:MM|±HHMM]`, checked field by field (no normalising of 25:61).
private struct ParsedTakenAt {
    var components: DateComponents
    /// `.123` or empty.
    var fraction: String
    /// Seconds east of UTC; nil when the text has no offset.
    var offsetSeconds: Int?

    init?(_ text: String) {
        let chars = Array(text)
        guard chars.count >= 19, chars[4] == "-", chars[7] == "-", chars[10] == "T" || chars[10] == " ",
              chars[13] == ":", chars[16] == ":"
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            let digits = chars[range]
            guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
            return Int(String(digits))
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)

        var rest = chars[19...]
        fraction = ""
        if rest.first == "." {
            let digits = rest.dropFirst().prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty else { return nil }
            fraction = "." + String(digits)
            rest = rest.dropFirst(1 + digits.count)
        }
        switch rest.first {
        case nil:
            offsetSeconds = nil
        case "Z":
            guard rest.count == 1 else { return nil }
            offsetSeconds = 0
        case "+", "-":
            let sign = rest.first == "-" ? -1 : 1
            let digits = rest.dropFirst().filter { $0 != ":" }
            guard digits.count == 4, rest.count == 5 || (rest.count == 6 && rest[rest.startIndex + 3] == ":"),
                  digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let hours = Int(String(digits.prefix(2))), let minutes = Int(String(digits.suffix(2))),
                  hours <= 18, minutes < 60
            else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
    }
}
