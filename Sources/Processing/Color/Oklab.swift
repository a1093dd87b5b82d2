import Foundation

/// A colour in 8-bit sRGB (gamma-encoded, as in files and on screens).
public struct SRGBColor: Sendable, Hashable {
    public var red, green, blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb`, lower case.
    public var hex: String {
        let value = Int(red) << 16 | Int(green) << 8 | Int(blue)
        let digits = String(value, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// The colour in Oklab.
    public var oklab: OklabColor {
        OklabColor(linearRed: SRGBTransfer.linear(code: red), linearGreen: SRGBTransfer.linear(code: green), linearBlue: SRGBTransfer.linear(code: blue))
    }
}

/// The sRGB transfer curve (IEC 61966-2-1), between gamma-encoded and linear light in 0...1.
public enum SRGBTransfer {
    /// Linear light of an encoded 0...1 value.
    public static func linear(_ encoded: Double) -> Double {
        encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// Encoded 0...1 value of linear light (not clamped).
    public static func encoded(_ linear: Double) -> Double {
        linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// Linear light of each 8-bit code, computed once (the palette stage converts tens of thousands of pixels).
    public static let table: [Double] = (0...255).map { linear(Double($0) / 255) }

    /// Linear light of an 8-bit code.
    public static func linear(code: UInt8) -> Double { table[Int(code)] }
}

/// A colour in Oklab (Björn Ottosson, 2020): L is perceived lightness in 0...1, a and b the green–red and
/// blue–yellow axes. Euclidean distance in Oklab approximates perceived difference, which is why
/// palettes are clustered, stored and searched in it.
public struct OklabColor: Sendable, Hashable, Codable {
    public var l, a, b: Double

    public init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// From linear-light sRGB components in 0...1.
    public init(linearRed r: Double, linearGreen g: Double, linearBlue b: Double) {
        let lms0 = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let lms1 = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let lms2 = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        self.l = 0.2104542553 * lms0 + 0.7936177850 * lms1 - 0.0040720468 * lms2
        self.a = 1.9779984951 * lms0 - 2.4285922050 * lms1 + 0.4505937099 * lms2
        self.b = 0.0259040371 * lms0 + 0.7827717662 * lms1 - 0.8086757660 * lms2
    }

    /// Linear-light sRGB components (outside 0...1 for colours outside the sRGB gamut).
    public var linearSRGB: (red: Double, green: Double, blue: Double) {
        let lms0 = l + 0.3963377774 * a + 0.2158037573 * b
        let lms1 = l - 0.1055613458 * a - 0.0638541728 * b
        let lms2 = l - 0.0894841775 * a - 1.2914855480 * b
        let x = lms0 * lms0 * lms0, y = lms1 * lms1 * lms1, z = lms2 * lms2 * lms2
        return (
            4.0767416621 * x - 3.3077115913 * y + 0.2309699292 * z,
            -1.2684380046 * x + 2.6097574011 * y - 0.3413193965 * z,
            -0.0041960863 * x - 0.7034186147 * y + 1.7076147010 * z
        )
    }

    /// The nearest 8-bit sRGB colour (components clamped to the gamut, then rounded).
    public var srgb: SRGBColor {
        let linear = linearSRGB
        func code(_ value: Double) -> UInt8 {
            UInt8((min(max(SRGBTransfer.encoded(max(value, 0)), 0), 1) * 255).rounded())
        }
        return SRGBColor(red: code(linear.red), green: code(linear.green), blue: code(linear.blue))
    }

    /// Perceived difference, "Oklab ΔE": 100 × the Euclidean distance, so that about 2 is just noticeable
    /// (comparable in size to CIELAB ΔE numbers). Search thresholds and distances use this unit.
    public func deltaE(_ other: OklabColor) -> Double {
        let dl = l - other.l, da = a - other.a, db = b - other.b
        return 100 * (dl * dl + da * da + db * db).squareRoot()
    }
}

/// Oklab with Ottosson's toe-corrected lightness Lr (from his Okhsv/Okhsl work), with a and b scaled by
/// the same factor Lr / L. Plain Oklab's cube root spreads the darkest 8-bit levels far apart (#000000 to
/// #010101 is ΔE 6.7, invisible on any screen); Lr follows CIELAB's L* there. The palette clusters in this
/// space so that it spends no colours on invisible near-black differences; it stores and searches Oklab.
enum ToeCorrectedOklab {
    private static let k1 = 0.206, k2 = 0.03, k3 = (1 + 0.206) / (1 + 0.03)

    static func toe(_ l: Double) -> Double {
        let x = k3 * l - k1
        return 0.5 * (x + (x * x + 4 * k2 * k3 * l).squareRoot())
    }

    static func inverseToe(_ lr: Double) -> Double {
        (lr * lr + k1 * lr) / (k3 * (lr + k2))
    }

    /// From Oklab.
    static func forward(_ color: OklabColor) -> OklabColor {
        let lr = toe(color.l)
        let scale = color.l > 1e-9 ? lr / color.l : 0
        return OklabColor(l: lr, a: color.a * scale, b: color.b * scale)
    }

    /// Back to Oklab.
    static func inverse(_ color: OklabColor) -> OklabColor {
        let l = inverseToe(color.l)
        let scale = color.l > 1e-9 ? l / color.l : 0
        return OklabColor(l: l, a: color.a * scale, b: color.b * scale)
    }
}
