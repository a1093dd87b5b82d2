/// Drawing images onto images: exact copies and straight-alpha "over" blending, clipped to the
/// destination, for canvases and contact sheets.
public enum ImageCompositor {
    /// Copies `source`'s pixels (alpha included) into `destination` with its top-left corner at (`x`, `y`).
    public static func copy(_ source: RGBAImage, into destination: inout RGBAImage, x: Int, y: Int) {
        let left = max(0, x), top = max(0, y)
        let right = min(destination.width, x + source.width), bottom = min(destination.height, y + source.height)
        guard left < right, top < bottom else { return }
        let rowBytes = (right - left) * 4
        source.pixels.withUnsafeBufferPointer { input in
            destination.pixels.withUnsafeMutableBufferPointer { output in
                for row in top..<bottom {
                    let from = ((row - y) * source.width + (left - x)) * 4
                    let to = (row * destination.width + left) * 4
                    for offset in 0..<rowBytes { output[to + offset] = input[from + offset] }
                }
            }
        }
    }

    /// Blends `source` over `destination` (straight alpha, "source over"), top-left at (`x`, `y`).
    public static func blend(_ source: RGBAImage, over destination: inout RGBAImage, x: Int, y: Int) {
        let left = max(0, x), top = max(0, y)
        let right = min(destination.width, x + source.width), bottom = min(destination.height, y + source.height)
        guard left < right, top < bottom else { return }
        source.pixels.withUnsafeBufferPointer { input in
            destination.pixels.withUnsafeMutableBufferPointer { output in
                for row in top..<bottom {
                    for column in left..<right {
                        let from = ((row - y) * source.width + (column - x)) * 4
                        let to = (row * destination.width + column) * 4
                        blendPixel(
                            red: input[from], green: input[from + 1], blue: input[from + 2], alpha: input[from + 3],
                            into: output, at: to
                        )
                    }
                }
            }
        }
    }

    /// Fills the rectangle with one colour, blended by `alpha`.
    public static func fill(
        _ destination: inout RGBAImage, x: Int, y: Int, width: Int, height: Int,
        red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255
    ) {
        let left = max(0, x), top = max(0, y)
        let right = min(destination.width, x + width), bottom = min(destination.height, y + height)
        guard left < right, top < bottom else { return }
        let stride = destination.width
        destination.pixels.withUnsafeMutableBufferPointer { output in
            for row in top..<bottom {
                for column in left..<right {
                    blendPixel(red: red, green: green, blue: blue, alpha: alpha, into: output, at: (row * stride + column) * 4)
                }
            }
        }
    }

    @inline(__always)
    static func blendPixel(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8, into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        if alpha == 0 { return }
        if alpha == 255 {
            output[offset] = red
            output[offset + 1] = green
            output[offset + 2] = blue
            output[offset + 3] = 255
            return
        }
        let sourceAlpha = Float(alpha) / 255
        let destinationAlpha = Float(output[offset + 3]) / 255 * (1 - sourceAlpha)
        let outAlpha = sourceAlpha + destinationAlpha
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8(min(255, ((Float(top) * sourceAlpha + Float(bottom) * destinationAlpha) / outAlpha).rounded()))
        }
        output[offset] = mix(red, output[offset])
        output[offset + 1] = mix(green, output[offset + 1])
        output[offset + 2] = mix(blue, output[offset + 2])
        output[offset + 3] = UInt8(min(255, (outAlpha * 255).rounded()))
    }
}
