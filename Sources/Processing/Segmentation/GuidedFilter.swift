/// Edge-aware refinement of a coarse mask (He, Sun & Tang, "Guided Image Filtering", 2013): the
/// output is locally a linear function of the photo's luminance, so a mask upsampled from a low
/// working resolution snaps to the photo's real edges while staying soft where they are soft.
public enum GuidedFilter {
    /// Refines `mask` (0...1, `guide.width * guide.height` values) along the edges of `guide`.
    /// `radius` is the window in pixels; `epsilon` (in luminance² units, 0...1 scale) sets how
    /// strong an edge must be to be followed.
    ///
    /// Two streaming box-filter passes (`BoxFilter.means`) do the six means: the first takes
    /// I, p, I² and I·p straight from the pixels and turns their means into the linear model's
    /// a and b row by row, pushed at once into the second, which averages a and b and applies them.
    public static func refine(_ mask: [Float], guide: RGBAImage, radius: Int, epsilon: Float = 1e-3) -> [Float] {
        [Float](unsafeUninitializedCapacity: mask.count) { result, initialized in
            refineRows(mask, guide: guide, radius: radius, epsilon: epsilon) { y, row in
                (result.baseAddress! + y * guide.width).initialize(from: row, count: guide.width)
            }
            initialized = mask.count
        }
    }

    /// `refine(...)` as bytes, `UInt8((value * 255).rounded())`, without a pass over a Float plane.
    public static func refinedBytes(_ mask: [Float], guide: RGBAImage, radius: Int, epsilon: Float = 1e-3) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: mask.count) { result, initialized in
            refineRows(mask, guide: guide, radius: radius, epsilon: epsilon) { y, row in
                let target = result.baseAddress! + y * guide.width
                for x in 0..<guide.width { target[x] = roundedByte(row[x] * 255) }
            }
            initialized = mask.count
        }
    }

    /// `UInt8(value.rounded())` for 0...255 without the trap check, so the loop vectorises:
    /// adding 1.5 * 2^23 rounds to the nearest integer, ties to even; ties go up instead, as
    /// `rounded()` takes them away from zero.
    @inline(__always)
    private static func roundedByte(_ value: Float) -> UInt8 {
        let magic: Float = 12_582_912
        let nearest = (value + magic) - magic
        let tie: Float = value - nearest == 0.5 ? 1 : 0
        return UInt8(truncatingIfNeeded: (nearest + tie + magic).bitPattern)
    }

    /// The refined mask, handed to `output` a row at a time, in order.
    private static func refineRows(
        _ mask: [Float], guide: RGBAImage, radius: Int, epsilon: Float,
        output: (_ y: Int, _ row: UnsafePointer<Float>) -> Void
    ) {
        let width = guide.width, height = guide.height, count = mask.count
        precondition(count == width * height, "GuidedFilter: mask and guide sizes differ")
        // The second pass takes each row of a and b as the first one makes it, so neither is kept
        // as a plane; luminance is worked out again (the same way) where the second pass needs it.
        let second = BoxFilter.Stream(planes: 2, width: width, height: height, radius: radius)
        let refined = UnsafeMutablePointer<Float>.allocate(capacity: 2 * width)
        defer { refined.deallocate() }
        let luminance = refined + width
        guide.pixels.withUnsafeBufferPointer { pixels in
            /// Row `y`'s luminance, 0...1, into `target`.
            func luma(_ y: Int, into target: UnsafeMutablePointer<Float>) {
                let pixel = pixels.baseAddress! + y * width * 4
                for x in 0..<width {
                    let red = Float(pixel[4 * x]), green = Float(pixel[4 * x + 1]), blue = Float(pixel[4 * x + 2])
                    target[x] = (0.299 * red + 0.587 * green + 0.114 * blue) / 255
                }
            }
            /// The second pass's means out: q = mean(a) I + mean(b), clamped.
            func apply(_ y: Int, _ means: UnsafePointer<Float>) {
                luma(y, into: luminance)
                for x in 0..<width { refined[x] = min(1, max(0, means[x] * luminance[x] + means[width + x])) }
                output(y, refined)
            }
            mask.withUnsafeBufferPointer { mask in
                BoxFilter.means(planes: 4, width: width, height: height, radius: radius) { y, rows in
                    let p = mask.baseAddress! + y * width
                    luma(y, into: rows)
                    for x in 0..<width {
                        let value = rows[x]
                        rows[width + x] = p[x]
                        rows[2 * width + x] = value * value
                        rows[3 * width + x] = value * p[x]
                    }
                } emit: { y, means in
                    // The local linear model q = a I + b, per window, straight into the second pass.
                    let meanI = means, meanP = means + width, meanII = means + 2 * width, meanIP = means + 3 * width
                    let a = second.row, b = second.row + width
                    for x in 0..<width {
                        let variance = meanII[x] - meanI[x] * meanI[x]
                        let covariance = meanIP[x] - meanI[x] * meanP[x]
                        a[x] = covariance / (variance + epsilon)
                        b[x] = meanP[x] - a[x] * meanI[x]
                    }
                    second.push(emit: apply)
                }
            }
            second.finish(emit: apply)
        }
    }
}
