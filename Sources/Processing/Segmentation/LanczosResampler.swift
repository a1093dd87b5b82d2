import Foundation

/// The network's input resize, done as rembg does it: Pillow's `Image.resize(size, Image.LANCZOS)`
/// on 8-bit RGB, reproduced to the byte (Pillow 7+ `Resample.c`: Lanczos-3 widened by the
/// shrink factor, weights normalised then rounded to 22-bit fixed point, the horizontal pass
/// first into 8-bit rows, then the vertical pass). With the same input bytes the network sees
/// exactly what rembg's u2netp sees, so its mask differs from the peer's only after the network.
enum LanczosResampler {
    private static let precisionBits = 22

    /// `image`'s RGB (alpha ignored, set to 255) resized to `width` x `height`.
    static func resized(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        if width == image.width && height == image.height { return image }
        let columns = Coefficients(source: image.width, destination: width)
        let rows = Coefficients(source: image.height, destination: height)
        // Pillow resamples only the source rows the vertical pass reads.
        let firstRow = rows.starts.first ?? 0
        let lastRow = zip(rows.starts, rows.counts).map { $0 + $1 }.max() ?? image.height
        let bandHeight = lastRow - firstRow
        var band = [UInt8](repeating: 0, count: width * bandHeight * 4)
        let half = 1 << (precisionBits - 1)
        image.pixels.withUnsafeBufferPointer { source in
            band.withUnsafeMutableBufferPointer { target in
                for y in 0..<bandHeight {
                    let row = (firstRow + y) * image.width * 4
                    for x in 0..<width {
                        var red = half, green = half, blue = half
                        let start = columns.starts[x], weights = x * columns.size
                        for tap in 0..<columns.counts[x] {
                            let offset = row + (start + tap) * 4, weight = columns.weights[weights + tap]
                            red += Int(source[offset]) * weight
                            green += Int(source[offset + 1]) * weight
                            blue += Int(source[offset + 2]) * weight
                        }
                        let offset = (y * width + x) * 4
                        target[offset] = clip(red)
                        target[offset + 1] = clip(green)
                        target[offset + 2] = clip(blue)
                    }
                }
            }
        }
        var output = [UInt8](repeating: 255, count: width * height * 4)
        band.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let start = rows.starts[y] - firstRow, weights = y * rows.size
                    for x in 0..<width {
                        var red = half, green = half, blue = half
                        for tap in 0..<rows.counts[y] {
                            let offset = ((start + tap) * width + x) * 4, weight = rows.weights[weights + tap]
                            red += Int(source[offset]) * weight
                            green += Int(source[offset + 1]) * weight
                            blue += Int(source[offset + 2]) * weight
                        }
                        let offset = (y * width + x) * 4
                        target[offset] = clip(red)
                        target[offset + 1] = clip(green)
                        target[offset + 2] = clip(blue)
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: output)
    }

    /// Pillow's `clip8`: the fixed-point sum's integer part (floor), clamped to a byte.
    @inline(__always)
    private static func clip(_ sum: Int) -> UInt8 {
        UInt8(clamping: sum >> precisionBits)
    }

    /// Pillow's `lanczos_filter`: sinc(x) sinc(x / 3) on [-3, 3).
    static func lanczos(_ x: Double) -> Double {
        guard -3 <= x && x < 3 else { return 0 }
        func sinc(_ x: Double) -> Double { x == 0 ? 1 : sin(x * .pi) / (x * .pi) }
        return sinc(x) * sinc(x / 3)
    }

    /// Pillow's `precompute_coeffs` + `normalize_coeffs_8bpc` for one axis: for each output
    /// position the first source index, the tap count and `size` fixed-point weights.
    struct Coefficients {
        var starts: [Int] = []
        var counts: [Int] = []
        var weights: [Int] = []
        var size = 0

        init(source: Int, destination: Int) {
            let scale = Double(source) / Double(destination)
            let filterScale = max(1, scale)
            let support = 3 * filterScale
            size = Int(support.rounded(.up)) * 2 + 1
            weights = [Int](repeating: 0, count: destination * size)
            for index in 0..<destination {
                let centre = (Double(index) + 0.5) * scale
                let first = max(0, Int(centre - support + 0.5))
                let count = min(source, Int(centre + support + 0.5)) - first
                let reciprocal = 1 / filterScale
                var taps = (0..<max(0, count)).map { lanczos((Double($0 + first) - centre + 0.5) * reciprocal) }
                let total = taps.reduce(0, +)
                if total != 0 { taps = taps.map { $0 / total } }
                for (tap, weight) in taps.enumerated() {
                    let fixed = weight * Double(1 << LanczosResampler.precisionBits)
                    weights[index * size + tap] = Int(fixed < 0 ? fixed - 0.5 : fixed + 0.5)
                }
                starts.append(first)
                counts.append(max(0, count))
            }
        }
    }
}
