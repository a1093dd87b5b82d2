/// Edge-aware refinement of a coarse mask (He, Sun & Tang, "Guided Image Filtering", 2013): the
/// output is locally a linear function of the photo's luminance, so a mask upsampled from a low
/// working resolution snaps to the photo's real edges while staying soft where they are soft.
public enum GuidedFilter {
    /// Refines `mask` (0...1, `guide.width * guide.height` values) along the edges of `guide`.
    /// `radius` is the window in pixels; `epsilon` (in luminance² units, 0...1 scale) sets how
    /// strong an edge must be to be followed.
    public static func refine(_ mask: [Float], guide: RGBAImage, radius: Int, epsilon: Float = 1e-3) -> [Float] {
        let width = guide.width, height = guide.height, count = mask.count
        precondition(count == width * height, "GuidedFilter: mask and guide sizes differ")
        var luminance = [Float](repeating: 0, count: count)
        var squares = [Float](repeating: 0, count: count)
        var products = [Float](repeating: 0, count: count)
        guide.pixels.withUnsafeBufferPointer { pixels in
            for index in 0..<count {
                let offset = index * 4
                let value = (0.299 * Float(pixels[offset]) + 0.587 * Float(pixels[offset + 1]) + 0.114 * Float(pixels[offset + 2])) / 255
                luminance[index] = value
                squares[index] = value * value
                products[index] = value * mask[index]
            }
        }
        let meanI = BoxFilter.mean(luminance, width: width, height: height, radius: radius)
        let meanP = BoxFilter.mean(mask, width: width, height: height, radius: radius)
        let meanII = BoxFilter.mean(squares, width: width, height: height, radius: radius)
        let meanIP = BoxFilter.mean(products, width: width, height: height, radius: radius)
        // The local linear model q = a I + b, per window; `squares` and `products` are reused for a and b.
        for index in 0..<count {
            let variance = meanII[index] - meanI[index] * meanI[index]
            let covariance = meanIP[index] - meanI[index] * meanP[index]
            let a = covariance / (variance + epsilon)
            squares[index] = a
            products[index] = meanP[index] - a * meanI[index]
        }
        let meanA = BoxFilter.mean(squares, width: width, height: height, radius: radius)
        let meanB = BoxFilter.mean(products, width: width, height: height, radius: radius)
        for index in 0..<count { luminance[index] = min(1, max(0, meanA[index] * luminance[index] + meanB[index])) }
        return luminance
    }
}
