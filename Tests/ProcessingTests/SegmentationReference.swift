import CSegmentationKernels
import Foundation
import Testing
@testable import Processing

/// Deterministic pseudo-random floats in -1 ..< 1 (64-bit LCG).
struct Noise {
    var state: UInt64
    mutating func next() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(Int64(bitPattern: state >> 11) % 2_000_000) / 1_000_000 - 1
    }
    mutating func array(_ count: Int) -> [Float] { (0..<count).map { _ in next() } }
}

// MARK: naive references (CHW planes, N = 1)

func referenceConv(_ x: [Float], c: Int, h: Int, w: Int, weight: [Float], bias: [Float], o: Int,
                           kernel: Int, dilation d: Int, relu: Bool) -> [Float] {
    var y = [Float](repeating: 0, count: o * h * w)
    let half = kernel / 2
    for oc in 0..<o {
        for row in 0..<h {
            for col in 0..<w {
                var sum = Double(bias[oc])
                for ic in 0..<c {
                    for ky in 0..<kernel {
                        for kx in 0..<kernel {
                            let iy = row + (ky - half) * d, ix = col + (kx - half) * d
                            guard iy >= 0, iy < h, ix >= 0, ix < w else { continue }
                            sum += Double(weight[((oc * c + ic) * kernel + ky) * kernel + kx]) * Double(x[(ic * h + iy) * w + ix])
                        }
                    }
                }
                y[(oc * h + row) * w + col] = relu ? Float(max(sum, 0)) : Float(sum)
            }
        }
    }
    return y
}

func referenceMaxPool(_ x: [Float], c: Int, h: Int, w: Int) -> [Float] {
    let ho = (h + 1) / 2, wo = (w + 1) / 2
    var y: [Float] = []
    for ch in 0..<c {
        for row in 0..<ho {
            for col in 0..<wo {
                var m = -Float.infinity
                for iy in 2 * row..<min(2 * row + 2, h) {
                    for ix in 2 * col..<min(2 * col + 2, w) { m = max(m, x[(ch * h + iy) * w + ix]) }
                }
                y.append(m)
            }
        }
    }
    return y
}

func referenceResize(_ x: [Float], c: Int, h: Int, w: Int, ho: Int, wo: Int) -> [Float] {
    func axis(_ i: Int, _ nIn: Int, _ nOut: Int) -> (Int, Int, Double) {
        let src = max((Double(i) + 0.5) * Double(nIn) / Double(nOut) - 0.5, 0)
        let i0 = min(Int(src.rounded(.down)), nIn - 1)
        return (i0, min(i0 + 1, nIn - 1), src - Double(i0))
    }
    var y: [Float] = []
    for ch in 0..<c {
        for row in 0..<ho {
            let (y0, y1, fy) = axis(row, h, ho)
            for col in 0..<wo {
                let (x0, x1, fx) = axis(col, w, wo)
                func at(_ r: Int, _ q: Int) -> Double { Double(x[(ch * h + r) * w + q]) }
                let top = at(y0, x0) * (1 - fx) + at(y0, x1) * fx
                let bottom = at(y1, x0) * (1 - fx) + at(y1, x1) * fx
                y.append(Float(top * (1 - fy) + bottom * fy))
            }
        }
    }
    return y
}

func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
    precondition(a.count == b.count)
    return zip(a, b).map { abs($0 - $1) }.max() ?? 0
}
