/// Edge-aware refinement of a coarse mask (He, Sun & Tang, "Guided Image Filtering", 2013): the
/// output is locally a linear function of the photo's luminance, so a mask upsampled from a low
/// working resolution snaps to the photo's real edges while staying soft where they are soft.
public enum GuidedFilter {
    /// Refines `mask` (0...1, `guide.width * guide.height` values) along the edges of `guide`.
    /// `radius` is the window in pixels; `epsilon` (in luminance² units, 0...1 scale) sets how
    /// strong an edge must be to be followed.
    public static func refine(_ mask: [Float], guide: RGBAImage, radius: Int, epsilon: Float = 1e-3) -> [Float] {
        let width = guide.width, height = guide.height
        precondition(mask.count == width * height, "GuidedFilter: mask and guide sizes differ")
        var luminance = [Float](repeating: 0, count: mask.count)
        for index in 0..<mask.count {
            let offset = index * 4
            luminance[index] = (0.299 * Float(guide.pixels[offset]) + 0.587 * Float(guide.pixels[offset + 1]) + 0.114 * Float(guide.pixels[offset + 2])) / 255
        }
        let meanI = BoxFilter.mean(luminance, width: width, height: height, radius: radius)
        let meanP = BoxFilter.mean(mask, width: width, height: height, radius: radius)
        let meanII = BoxFilter.mean(zip(luminance, luminance).map(*), width: width, height: height, radius: radius)
        let meanIP = BoxFilter.mean(zip(luminance, mask).map(*), width: width, height: height, radius: radius)
        var a = [Float](repeating: 0, count: mask.count)
        var b = [Float](repeating: 0, count: mask.count)
        for index in 0..<mask.count {
            let variance = meanII[index] - meanI[index] * meanI[index]
            let covariance = meanIP[index] - meanI[index] * meanP[index]
            a[index] = covariance / (variance + epsilon)
            b[index] = meanP[index] - a[index] * meanI[index]
        }
        let meanA = BoxFilter.mean(a, width: width, height: height, radius: radius)
        let meanB = BoxFilter.mean(b, width: width, height: height, radius: radius)
        return (0..<mask.count).map { min(1, max(0, meanA[$0] * luminance[$0] + meanB[$0])) }
    }
}
