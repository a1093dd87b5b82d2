import Foundation

/// The subject's pixels on a regular grid, in toe-corrected Oklab (``ToeCorrectedOklab``), each weighted by its alpha (0 excluded): structure of
/// arrays in `Float` so the clustering loops stay in cache.
struct PaletteSamples {
    var l: [Float] = []
    var a: [Float] = []
    var b: [Float] = []
    var weight: [Float] = []
    var totalWeight: Double = 0

    var count: Int { weight.count }

    /// Samples every `step`-th pixel in both directions, `step` chosen so at most `limit` pixels are read.
    init(_ image: RGBAImage, limit: Int) {
        let step = max(1, Int((Double(image.width * image.height) / Double(limit)).squareRoot().rounded(.up)))
        let capacity = ((image.width + step - 1) / step) * ((image.height + step - 1) / step)
        l.reserveCapacity(capacity)
        a.reserveCapacity(capacity)
        b.reserveCapacity(capacity)
        weight.reserveCapacity(capacity)
        let linear = SRGBTransfer.table
        // Neighbouring pixels often repeat a colour: remember the last conversion.
        var lastKey: UInt32 = .max
        var last = OklabColor(l: 0, a: 0, b: 0)
        var total = 0.0
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in stride(from: 0, to: image.height, by: step) {
                var offset = y * image.width * 4
                for _ in stride(from: 0, to: image.width, by: step) {
                    let alpha = pixels[offset + 3]
                    if alpha > 0 {
                        let red = pixels[offset], green = pixels[offset + 1], blue = pixels[offset + 2]
                        let key = UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
                        if key != lastKey {
                            last = ToeCorrectedOklab.forward(
                                OklabColor(linearRed: linear[Int(red)], linearGreen: linear[Int(green)], linearBlue: linear[Int(blue)]))
                            lastKey = key
                        }
                        l.append(Float(last.l))
                        a.append(Float(last.a))
                        b.append(Float(last.b))
                        let w = Float(alpha) / 255
                        weight.append(w)
                        total += Double(w)
                    }
                    offset += step * 4
                }
            }
        }
        totalWeight = total
    }
}
