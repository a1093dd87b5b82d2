import Foundation

/// The code-along's gradient sticker background: a linear gradient through a sticker's palette
/// colours (largest share first), from the top-left corner to the bottom-right.
public enum PaletteGradient {
    /// The neutral gradient used when a sticker has no palette yet.
    public static let neutral: [(UInt8, UInt8, UInt8)] = [(0xEE, 0xEE, 0xF0), (0xC4, 0xC6, 0xCC)]

    /// The gradient's colour stops for `palette`: its colours in order; one colour becomes a
    /// light-to-full ramp of itself; an empty palette the neutral grey.
    public static func stops(for palette: Palette) -> [(UInt8, UInt8, UInt8)] {
        let colors = palette.colors.compactMap { rgb(hex: $0.hex) }
        switch colors.count {
        case 0: return neutral
        case 1:
            let (red, green, blue) = colors[0]
            func lighten(_ value: UInt8) -> UInt8 { UInt8((Double(value) + (255 - Double(value)) * 0.55).rounded()) }
            return [(lighten(red), lighten(green), lighten(blue)), colors[0]]
        default: return colors
        }
    }

    /// `color` moved `amount` (0...1) of the way to white.
    public static func mixed(_ color: (UInt8, UInt8, UInt8), withWhite amount: Double) -> (UInt8, UInt8, UInt8) {
        func mix(_ value: UInt8) -> UInt8 { UInt8((Double(value) + (255 - Double(value)) * amount).rounded()) }
        return (mix(color.0), mix(color.1), mix(color.2))
    }

    /// `#rrggbb` as bytes, or nil.
    public static func rgb(hex: String) -> (UInt8, UInt8, UInt8)? {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"), let value = UInt32(String(hex.dropFirst()), radix: 16) else {
            return nil
        }
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    /// An opaque `width` x `height` tile of the gradient; pixels outside corners rounded by
    /// `cornerRadius` are transparent.
    public static func tile(stops: [(UInt8, UInt8, UInt8)], width: Int, height: Int, cornerRadius: Int = 0) -> RGBAImage {
        let stops = stops.isEmpty ? neutral : stops
        var image = RGBAImage(width: width, height: height, red: 0, green: 0, blue: 0, alpha: 0)
        let span = Double(max(1, width - 1 + height - 1))
        let radius = Double(cornerRadius)
        // The colour depends on x + y only: one lookup entry per diagonal.
        let diagonal = (0..<(width + height - 1)).map { color(at: Double($0) / span, stops: stops) }
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let coverage = cornerCoverage(x: x, y: y, width: width, height: height, radius: radius)
                    guard coverage > 0 else { continue }
                    let (red, green, blue) = diagonal[x + y]
                    let offset = (y * width + x) * 4
                    pixels[offset] = red
                    pixels[offset + 1] = green
                    pixels[offset + 2] = blue
                    pixels[offset + 3] = UInt8((coverage * 255).rounded())
                }
            }
        }
        return image
    }

    /// The colour at `position` (0...1) along evenly spaced stops, interpolated in linear light
    /// (so the middle of two colours is not muddier than either).
    static func color(at position: Double, stops: [(UInt8, UInt8, UInt8)]) -> (UInt8, UInt8, UInt8) {
        guard stops.count > 1 else { return stops[0] }
        let scaled = min(max(position, 0), 1) * Double(stops.count - 1)
        let index = min(Int(scaled), stops.count - 2)
        let fraction = scaled - Double(index)
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            let linear = toLinear(a) * (1 - fraction) + toLinear(b) * fraction
            return fromLinear(linear)
        }
        let (a, b) = (stops[index], stops[index + 1])
        return (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }

    /// How much of pixel (x, y) lies inside the rounded rectangle (anti-aliased over one pixel).
    private static func cornerCoverage(x: Int, y: Int, width: Int, height: Int, radius: Double) -> Double {
        guard radius > 0 else { return 1 }
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let cx = px < radius ? radius : (px > Double(width) - radius ? Double(width) - radius : px)
        let cy = py < radius ? radius : (py > Double(height) - radius ? Double(height) - radius : py)
        let distance = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
        return min(1, max(0, radius - distance + 0.5))
    }

    private static func toLinear(_ value: UInt8) -> Double {
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    private static func fromLinear(_ value: Double) -> UInt8 {
        let c = value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
        return UInt8(min(255, max(0, (c * 255).rounded())))
    }
}
