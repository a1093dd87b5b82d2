import Foundation
import Processing

/// A generated photo: a shaded subject over a background, with its exact soft mask known.
/// Deterministic for the same parameters, so tests and benchmarks can expect exact results.
public struct SampleScene: Sendable, Equatable {
    /// What lies behind the subject.
    public enum Background: Sendable, Equatable {
        /// A vertical gradient between two colours.
        case gradient(top: RGB, bottom: RGB)
        /// A two-colour checkerboard with the given cell size in pixels.
        case checker(RGB, RGB, cell: Int)
        /// A colour with per-pixel noise of the given amplitude (like a grainy photo).
        case noise(RGB, amplitude: Int)
    }

    /// The subject's outline.
    public enum Shape: String, Sendable, Equatable, CaseIterable {
        case ellipse, star, roundedSquare, blob
    }

    public var width: Int
    public var height: Int
    public var background: Background
    public var shape: Shape
    public var subjectColor: RGB
    /// A second colour painted as a band across the subject (nil for a single colour).
    public var accentColor: RGB?
    /// Subject centre as a fraction of the frame (0...1).
    public var centerX: Double
    public var centerY: Double
    /// Subject radius as a fraction of the frame's short side.
    public var radius: Double
    public var seed: UInt64

    public init(
        width: Int, height: Int, background: Background, shape: Shape, subjectColor: RGB,
        accentColor: RGB? = nil, centerX: Double = 0.5, centerY: Double = 0.5, radius: Double = 0.3, seed: UInt64 = 1
    ) {
        self.width = width
        self.height = height
        self.background = background
        self.shape = shape
        self.subjectColor = subjectColor
        self.accentColor = accentColor
        self.centerX = centerX
        self.centerY = centerY
        self.radius = radius
        self.seed = seed
    }

    /// The scene as an opaque photo.
    public func renderPhoto() -> RGBAImage {
        render(withBackground: true)
    }

    /// The subject alone over a transparent background (a PNG "that already has transparency").
    public func renderCutout() -> RGBAImage {
        render(withBackground: false)
    }

    /// The true soft mask of the subject: 0 background ... 255 subject, one byte a pixel.
    public func renderMask() -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: width * height)
        mask.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    buffer[y * width + x] = UInt8((coverage(x: x, y: y) * 255).rounded())
                }
            }
        }
        return mask
    }

    private func render(withBackground: Bool) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let shortSide = Double(min(width, height))
        let cx = centerX * Double(width)
        let cy = centerY * Double(height)
        let r = radius * shortSide
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    let alpha = coverage(x: x, y: y)
                    let back = withBackground ? backgroundColor(x: x, y: y) : subjectColor
                    var front = back
                    if alpha > 0 {
                        // Light from the upper left: the subject looks like an object, not a flat stamp.
                        let dx = (Double(x) + 0.5 - cx) / r
                        let dy = (Double(y) + 0.5 - cy) / r
                        let light = 1.12 - 0.28 * min(1, max(0, (dx + dy + 1.4) / 2.8))
                        var base = subjectColor
                        if let accent = accentColor, abs(dy - 0.35 * dx) < 0.18 { base = accent }
                        front = base.scaled(by: light)
                    }
                    let offset = (y * width + x) * 4
                    if withBackground {
                        let mixed = back.mixed(with: front, amount: alpha)
                        buffer[offset] = mixed.red
                        buffer[offset + 1] = mixed.green
                        buffer[offset + 2] = mixed.blue
                        buffer[offset + 3] = 255
                    } else {
                        buffer[offset] = front.red
                        buffer[offset + 1] = front.green
                        buffer[offset + 2] = front.blue
                        buffer[offset + 3] = UInt8((alpha * 255).rounded())
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Fraction of the pixel covered by the subject, from a signed distance (1-pixel soft edge).
    func coverage(x: Int, y: Int) -> Double {
        let shortSide = Double(min(width, height))
        let r = radius * shortSide
        let px = Double(x) + 0.5 - centerX * Double(width)
        let py = Double(y) + 0.5 - centerY * Double(height)
        let distance: Double  // negative inside, in pixels
        switch shape {
        case .ellipse:
            let k = (px * px) / (r * r * 1.21) + (py * py) / (r * r * 0.81)
            distance = (k.squareRoot() - 1) * r * 0.9
        case .roundedSquare:
            let corner = r * 0.3
            let qx = abs(px) - (r - corner)
            let qy = abs(py) - (r - corner)
            let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
            distance = outside + min(max(qx, qy), 0) - corner
        case .star:
            let angle = atan2(py, px)
            let wobble = 0.72 + 0.28 * cos(5 * angle)
            distance = (px * px + py * py).squareRoot() - r * wobble
        case .blob:
            let angle = atan2(py, px)
            let phase = Double(seed % 7)
            let wobble = 0.85 + 0.09 * cos(3 * angle + phase) + 0.06 * cos(7 * angle - phase)
            distance = (px * px + py * py).squareRoot() - r * wobble
        }
        return min(1, max(0, 0.5 - distance))
    }

    private func backgroundColor(x: Int, y: Int) -> RGB {
        switch background {
        case .gradient(let top, let bottom):
            return top.mixed(with: bottom, amount: height > 1 ? Double(y) / Double(height - 1) : 0)
        case .checker(let first, let second, let cell):
            let size = max(1, cell)
            return (x / size + y / size).isMultiple(of: 2) ? first : second
        case .noise(let color, let amplitude):
            let n = Int(noise(x: x, y: y) % UInt64(2 * max(1, amplitude) + 1)) - amplitude
            return color.offset(by: n)
        }
    }

    private func noise(x: Int, y: Int) -> UInt64 {
        // SplitMix64 over (seed, x, y): deterministic and cheap.
        var z = seed &+ UInt64(truncatingIfNeeded: y) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: x) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
