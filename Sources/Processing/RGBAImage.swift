/// An 8-bit image with straight (not premultiplied) alpha, rows top to bottom, 4 bytes a pixel, no padding.
/// A value type: it crosses task boundaries freely and is never shared mutably.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A for each pixel.
    public var pixels: [UInt8]

    /// Wraps pixels that are already laid out as RGBA; the count must be `width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "RGBAImage: \(width)x\(height) needs \(width * height * 4) bytes, got \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one colour.
    public init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        precondition(width > 0 && height > 0, "RGBAImage: empty size \(width)x\(height)")
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                buffer[offset] = red
                buffer[offset + 1] = green
                buffer[offset + 2] = blue
                buffer[offset + 3] = alpha
                offset += 4
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The RGBA of the pixel at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let offset = (y * width + x) * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// The rectangle at (`x`, `y`) of the given size, which must lie inside the image.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
        precondition(x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= self.width && y + height <= self.height,
                     "RGBAImage.cropped: \(width)x\(height) at (\(x), \(y)) is outside \(self.width)x\(self.height)")
        var result: [UInt8] = []
        result.reserveCapacity(width * height * 4)
        for row in y..<(y + height) {
            let start = (row * self.width + x) * 4
            result.append(contentsOf: pixels[start..<start + width * 4])
        }
        return RGBAImage(width: width, height: height, pixels: result)
    }

    /// True when at least one pixel is not fully opaque.
    public var hasTransparency: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var offset = 3
            while offset < buffer.count {
                if buffer[offset] != 255 { return true }
                offset += 4
            }
            return false
        }
    }
}
