import Foundation
import Processing

/// How far apart two palettes are, in CIE ΔE76 (Euclidean distance in CIELAB, D65): each colour's
/// distance to the nearest colour of the other palette, weighted by its share, both ways averaged.
/// What tests and benchmarks use to say a photo's palette matches its twin's (≤ 8: the same colours).
public enum PaletteDistance {
    public static func shareWeightedDeltaE76(_ first: Palette, _ second: Palette) -> Double {
        (oneWay(first, second) + oneWay(second, first)) / 2
    }

    private static func oneWay(_ from: Palette, _ to: Palette) -> Double {
        let targets = to.colors.compactMap { lab($0.hex) }
        var total = 0.0, shares = 0.0
        for color in from.colors {
            guard let source = lab(color.hex) else { continue }
            let nearest = targets.map { distance(source, $0) }.min() ?? 100
            total += nearest * color.share
            shares += color.share
        }
        return shares > 0 ? total / shares : 0
    }

    private static func distance(_ x: (Double, Double, Double), _ y: (Double, Double, Double)) -> Double {
        ((x.0 - y.0) * (x.0 - y.0) + (x.1 - y.1) * (x.1 - y.1) + (x.2 - y.2) * (x.2 - y.2)).squareRoot()
    }

    /// CIELAB (D65) of a `#rrggbb` sRGB colour.
    public static func lab(_ hex: String) -> (Double, Double, Double)? {
        guard hex.count == 7, let value = Int(hex.dropFirst(), radix: 16) else { return nil }
        let r = SRGBTransfer.linear(Double(value >> 16) / 255)
        let g = SRGBTransfer.linear(Double(value >> 8 & 0xFF) / 255)
        let b = SRGBTransfer.linear(Double(value & 0xFF) / 255)
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? Foundation.cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }
}
