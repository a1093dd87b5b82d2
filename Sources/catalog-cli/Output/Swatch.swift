import Foundation

/// Colour swatches for terminals that understand 24-bit ANSI colour.
enum Swatch {
    /// A block of the colour `#rrggbb` followed by the hex, or just the hex when colour is off.
    static func render(hex: String, colored: Bool, width: Int = 4) -> String {
        guard colored, let (red, green, blue) = components(hex) else { return hex }
        return "\u{1B}[48;2;\(red);\(green);\(blue)m" + String(repeating: " ", count: width) + "\u{1B}[0m " + hex
    }

    private static func components(_ hex: String) -> (Int, Int, Int)? {
        guard hex.count == 7, hex.hasPrefix("#"), let value = Int(hex.dropFirst(), radix: 16) else { return nil }
        return ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
    }
}

/// Human-friendly numbers.
enum Format {
    /// `12.3 MB`, decimal units (as the platforms' byte limits are).
    static func bytes(_ count: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) bytes" : String(format: "%.1f %@", value, units[unit])
    }

    /// Frames a second to a tenth, in one form for every sticker: `15 fps` (not `15.0`), `12.5 fps`.
    static func frameRate(_ rate: Double) -> String {
        guard rate.isFinite else { return "?" }
        let tenths = (rate * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(format: "%.0f", tenths / 10) : String(format: "%.1f", tenths / 10)
    }

    /// An exposure time as photographers write it: `1/250 s`, `2 s`.
    static func exposure(_ seconds: Double) -> String {
        // Bounded so that the reciprocal stays an Int: an EXIF rational may say anything.
        if seconds > 1e-12, seconds < 1 {
            return "1/\(Int((1 / seconds).rounded())) s"
        }
        return String(format: "%g s", seconds)
    }
}
