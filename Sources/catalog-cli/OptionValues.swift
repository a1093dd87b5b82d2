import ArgumentParser
import Foundation

/// Strict readers for option values, used as `@Option(parsing: .unconditional, transform:)`: the value is
/// taken even when it starts with `-` (so `--within -5` says what is wrong with -5, not "missing value"),
/// and a malformed or out-of-range value is a usage error (64) that says what is accepted, raised
/// while parsing: before any catalog or file is opened.
enum OptionValue {
    /// A whole number in `range`: "--jobs must be a whole number from 1 to 256, not 'x'".
    static func whole(_ name: String, _ range: ClosedRange<Int>) -> @Sendable (String) throws -> Int {
        { text in
            guard let value = Int(text), range.contains(value) else {
                throw ValidationError("\(name) must be a whole number \(describe(range)), not '\(text)'")
            }
            return value
        }
    }

    /// A decimal number above `low` and at most `high`.
    static func decimal(_ name: String, above low: Double, atMost high: Double) -> @Sendable (String) throws -> Double {
        { text in
            guard let value = Double(text), value.isFinite, value > low, value <= high else {
                throw ValidationError("\(name) must be a number above \(number(low)) and at most \(number(high)), not '\(text)'")
            }
            return value
        }
    }

    /// One of `choices` (whole numbers).
    static func oneOf(_ name: String, _ choices: [Int]) -> @Sendable (String) throws -> Int {
        { text in
            guard let value = Int(text), choices.contains(value) else {
                throw ValidationError("\(name) must be one of \(choices.map(String.init).joined(separator: ", ")), not '\(text)'")
            }
            return value
        }
    }

    /// A calendar date or date-time in UTC, checked for real (no month 13, no 30 February).
    static func date(_ name: String) -> @Sendable (String) throws -> String {
        { text in
            guard let value = DateBound.parse(text) else {
                throw ValidationError("\(name) '\(text)' is not a date: use \(DateBound.accepted)")
            }
            return value
        }
    }

    static func describe(_ range: ClosedRange<Int>) -> String {
        if range.upperBound == Int.max { return "≥ \(range.lowerBound)" }
        return "from \(range.lowerBound) to \(range.upperBound)"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// The dates `--taken-after` / `--taken-before` accept, in the form `taken_at_utc` compares with.
enum DateBound {
    static let accepted = "YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (UTC, an optional Z), a real date such as 2024-06-30"

    /// The text without a trailing `Z` when it is a real date or date-time; nil otherwise.
    static func parse(_ text: String) -> String? {
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
