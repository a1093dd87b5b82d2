import ArgumentParser
import Catalog
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
    static let accepted = ColorQuery.acceptedDates

    /// The text without a trailing `Z` when it is a real date or date-time; nil otherwise.
    static func parse(_ text: String) -> String? { ColorQuery.timeBound(text) }
}
