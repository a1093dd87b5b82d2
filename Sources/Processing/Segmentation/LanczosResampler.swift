import CResampleRows
import Foundation

/// The network's input resize, done as rembg does it: Pillow's `Image.resize(size, Image.LANCZOS)`
/// on 8-bit RGB, reproduced to the byte (Pillow 7+ `Resample.c`: Lanczos-3 widened by the
/// shrink factor, weights normalised then rounded to 22-bit fixed point, the horizontal pass
/// first into 8-bit rows, then the vertical pass). With the same input bytes the network sees
/// exactly what rembg's u2netp sees, so its mask differs from the peer's only after the network.
///
/// The coefficients are computed here, as Pillow computes them; the passes' sums run in C
/// (CResampleRows, `lanczos_resample_across` / `_down`) in Pillow's own int32 arithmetic, on the
/// kernel path `ConvolutionKernels` chooses (AVX-512, AVX2 or portable; `STICKER_KERNELS`
/// narrows it). Every path gives the same bytes: the sums are exact integers.
enum LanczosResampler {
    static let precisionBits = 22

    /// `image`'s RGB (alpha ignored, set to 255) resized to `width` x `height`, on kernel path
    /// `kernels` (a path the CPU lacks falls back to the next narrower one).
    static func resized(_ image: RGBAImage, width: Int, height: Int, kernels: ConvolutionKernels = .default) -> RGBAImage {
        if width == image.width && height == image.height { return image }
        let columns = Coefficients(source: image.width, destination: width)
        let rows = Coefficients(source: image.height, destination: height)
        let columnStarts = columns.starts.map { Int32($0) }, columnCounts = columns.counts.map { Int32($0) }
        // Rows of the horizontal pass (Pillow's 8-bit intermediate, 4 bytes a pixel), made when the
        // vertical pass first needs them and kept in a ring as deep as its longest filter.
        let stride = width * 4
        let depth = max(1, rows.counts.max() ?? 1)
        let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: depth * stride)
        let tapRows = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: depth)
        defer {
            ring.deallocate()
            tapRows.deallocate()
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, initialized in
            image.pixels.withUnsafeBufferPointer { source in
                columns.weights.withUnsafeBufferPointer { columnWeights in
                    rows.weights.withUnsafeBufferPointer { rowWeights in
                        var nextRow = 0
                        for y in 0..<height {
                            let first = rows.starts[y], taps = rows.counts[y]
                            nextRow = max(nextRow, first)
                            while nextRow < first + taps {
                                lanczos_resample_across(kernels.rawValue, source.baseAddress! + nextRow * image.width * 4, width,
                                                        columnStarts, columnCounts, columnWeights.baseAddress!, columns.size,
                                                        ring + (nextRow % depth) * stride)
                                nextRow += 1
                            }
                            for tap in 0..<taps { tapRows[tap] = UnsafePointer(ring + ((first + tap) % depth) * stride) }
                            lanczos_resample_down(kernels.rawValue, tapRows, taps, rowWeights.baseAddress! + y * rows.size, width,
                                                  output.baseAddress! + y * width * 4)
                        }
                    }
                }
            }
            initialized = width * height * 4
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
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
        /// Fixed-point weights, `size` per output position (Pillow keeps them in a C int).
        var weights: [Int32] = []
        var size = 0

        init(source: Int, destination: Int) {
            let scale = Double(source) / Double(destination)
            let filterScale = max(1, scale)
            let support = 3 * filterScale
            size = Int(support.rounded(.up)) * 2 + 1
            weights = [Int32](repeating: 0, count: destination * size)
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
                    weights[index * size + tap] = Int32(fixed < 0 ? fixed - 0.5 : fixed + 0.5)
                }
                starts.append(first)
                counts.append(max(0, count))
            }
        }
    }
}
