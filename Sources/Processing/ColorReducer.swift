/// Lossy and lossless clean-ups that make a sticker's PNG smaller when it must fit a byte limit.
public enum ColorReducer {
    /// The image with the colour of fully transparent pixels set to black. Invisible, so lossless
    /// to the eye, and long runs of identical bytes compress far better.
    public static func clearingHiddenColor(_ image: RGBAImage) -> RGBAImage {
        var result = image
        result.pixels.withUnsafeMutableBufferPointer { pixels in
            var offset = 0
            while offset < pixels.count {
                if pixels[offset + 3] == 0 {
                    pixels[offset] = 0
                    pixels[offset + 1] = 0
                    pixels[offset + 2] = 0
                }
                offset += 4
            }
        }
        return result
    }

    /// The image with each colour channel rounded to `bits` significant bits (2...8), alpha to
    /// `max(bits, 4)`: at most 2^(3 bits) colours, so zlib finds many more repeats. Deterministic
    /// and without dithering (dither noise would undo the gain).
    public static func reduced(_ image: RGBAImage, bits: Int) -> RGBAImage {
        let colorBits = min(8, max(2, bits))
        let alphaBits = max(colorBits, 4)
        let colorTable = levels(bits: colorBits)
        let alphaTable = levels(bits: alphaBits)
        var result = clearingHiddenColor(image)
        result.pixels.withUnsafeMutableBufferPointer { pixels in
            colorTable.withUnsafeBufferPointer { colors in
                alphaTable.withUnsafeBufferPointer { alphas in
                    var offset = 0
                    while offset < pixels.count {
                        pixels[offset] = colors[Int(pixels[offset])]
                        pixels[offset + 1] = colors[Int(pixels[offset + 1])]
                        pixels[offset + 2] = colors[Int(pixels[offset + 2])]
                        pixels[offset + 3] = alphas[Int(pixels[offset + 3])]
                        offset += 4
                    }
                }
            }
        }
        return result
    }

    /// For every byte value, the nearest of 2^bits evenly spaced levels spanning 0...255
    /// (so 0 and 255 stay exact: opaque stays opaque, transparent stays transparent).
    private static func levels(bits: Int) -> [UInt8] {
        let steps = Double((1 << bits) - 1)
        return (0...255).map { value in
            UInt8((((Double(value) / 255 * steps).rounded()) / steps * 255).rounded())
        }
    }
}
