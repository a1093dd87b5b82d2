/// An opaque sRGB colour with 8-bit channels.
public struct RGB: Sendable, Equatable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb`, lower case.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        return "#" + [red, green, blue].map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined()
    }

    func mixed(with other: RGB, amount: Double) -> RGB {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8(min(255, max(0, (Double(a) * (1 - amount) + Double(b) * amount).rounded())))
        }
        return RGB(mix(red, other.red), mix(green, other.green), mix(blue, other.blue))
    }

    func scaled(by factor: Double) -> RGB {
        func scale(_ v: UInt8) -> UInt8 { UInt8(min(255, max(0, (Double(v) * factor).rounded()))) }
        return RGB(scale(red), scale(green), scale(blue))
    }

    func offset(by delta: Int) -> RGB {
        func shift(_ v: UInt8) -> UInt8 { UInt8(min(255, max(0, Int(v) + delta))) }
        return RGB(shift(red), shift(green), shift(blue))
    }
}
