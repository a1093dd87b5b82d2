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
    /// a and b row by row; the second averages a and b and applies them.
    public static func refine(_ mask: [Float], guide: RGBAImage, radius: Int, epsilon: Float = 1e-3) -> [Float] {
        let width = guide.width, height = guide.height, count = mask.count
        precondition(count == width * height, "GuidedFilter: mask and guide sizes differ")
        // Luminance is kept for the last step; a and b fill `model` as two planes.
        let luminance = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let model = UnsafeMutablePointer<Float>.allocate(capacity: 2 * count)
        defer {
            luminance.deallocate()
            model.deallocate()
        }
        let slopes = model, offsets = model + count
        guide.pixels.withUnsafeBufferPointer { pixels in
            mask.withUnsafeBufferPointer { mask in
                BoxFilter.means(planes: 4, width: width, height: height, radius: radius) { y, rows in
                    let pixel = pixels.baseAddress! + y * width * 4, p = mask.baseAddress! + y * width
                    let lum = luminance + y * width
                    for x in 0..<width {
                        let red = Float(pixel[4 * x]), green = Float(pixel[4 * x + 1]), blue = Float(pixel[4 * x + 2])
                        let value = (0.299 * red + 0.587 * green + 0.114 * blue) / 255
                        lum[x] = value
                        rows[x] = value
                        rows[width + x] = p[x]
                        rows[2 * width + x] = value * value
                        rows[3 * width + x] = value * p[x]
                    }
                } emit: { y, means in
                    // The local linear model q = a I + b, per window.
                    let meanI = means, meanP = means + width, meanII = means + 2 * width, meanIP = means + 3 * width
                    let a = slopes + y * width, b = offsets + y * width
                    for x in 0..<width {
                        let variance = meanII[x] - meanI[x] * meanI[x]
                        let covariance = meanIP[x] - meanI[x] * meanP[x]
                        a[x] = covariance / (variance + epsilon)
                        b[x] = meanP[x] - a[x] * meanI[x]
                    }
                }
            }
        }
        return [Float](unsafeUninitializedCapacity: count) { result, initialized in
            BoxFilter.means(planes: 2, width: width, height: height, radius: radius) { y, rows in
                rows.update(from: slopes + y * width, count: width)
                (rows + width).update(from: offsets + y * width, count: width)
            } emit: { y, means in
                let lum = luminance + y * width, target = result.baseAddress! + y * width
                for x in 0..<width { target[x] = min(1, max(0, means[x] * lum[x] + means[width + x])) }
            }
            initialized = count
        }
    }
}
