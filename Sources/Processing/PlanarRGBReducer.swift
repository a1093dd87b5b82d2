/// Turns a decoder's separate R, G, B (and alpha) planes of 8 to 16 bits into 8-bit RGBA, shrunk
/// by a whole factor on the way: each output pixel is the mean of its `factor` × `factor` block
/// (the last row and column of blocks may be partial). Colours are weighted by alpha, as
/// `ImageResizer` does, so the colour of see-through pixels never bleeds into visible ones.
///
/// One pass over the planes and no full-size buffer of our own: a 12 MP HEIC goes from libheif's
/// planes to the working size directly, instead of through an interleaved 48 MB copy and a
/// Float resample of it.
enum PlanarRGBReducer {
    /// One plane as libheif hands it out: `stride` bytes a row, samples of `bitDepth` bits in one
    /// byte (8) or one native-endian `UInt16` (9...16).
    struct Plane {
        var base: UnsafeRawPointer
        var stride: Int
        var bitDepth: Int
    }

    /// `width` x `height` planes reduced by `factor` (1 only interleaves) to 8-bit straight RGBA.
    static func reduced(
        red: Plane, green: Plane, blue: Plane, alpha: Plane?, width: Int, height: Int, factor: Int
    ) -> RGBAImage {
        precondition(width > 0 && height > 0 && factor > 0, "PlanarRGBReducer: \(width)x\(height) by \(factor)")
        let deep = red.bitDepth > 8
        switch (deep, alpha.map { $0.bitDepth > 8 }) {
        case (false, nil): return run(UInt8.self, UInt8.self, red, green, blue, nil, width, height, factor)
        case (true, nil): return run(UInt16.self, UInt8.self, red, green, blue, nil, width, height, factor)
        case (false, false?): return run(UInt8.self, UInt8.self, red, green, blue, alpha, width, height, factor)
        case (false, true?): return run(UInt8.self, UInt16.self, red, green, blue, alpha, width, height, factor)
        case (true, false?): return run(UInt16.self, UInt8.self, red, green, blue, alpha, width, height, factor)
        case (true, true?): return run(UInt16.self, UInt16.self, red, green, blue, alpha, width, height, factor)
        }
    }

    // Specialised per sample type (the optimiser makes one loop nest for each pair).
    private static func run<Colour: FixedWidthInteger & UnsignedInteger, Alpha: FixedWidthInteger & UnsignedInteger>(
        _ colour: Colour.Type, _ alphaType: Alpha.Type,
        _ red: Plane, _ green: Plane, _ blue: Plane, _ alpha: Plane?, _ width: Int, _ height: Int, _ factor: Int
    ) -> RGBAImage {
        let outWidth = (width + factor - 1) / factor
        let outHeight = (height + factor - 1) / factor
        let count = outWidth * outHeight * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            let sums = BandSums(width: width, colourBits: red.bitDepth, alphaBits: alpha?.bitDepth)
            defer { sums.deallocate() }
            for band in 0..<outHeight {
                let firstRow = band * factor
                let rows = min(factor, height - firstRow)
                sums.clear()
                for y in firstRow..<firstRow + rows {
                    sums.add(row: y, Colour.self, Alpha.self, red: red, green: green, blue: blue, alpha: alpha)
                }
                let target = output.baseAddress! + band * outWidth * 4
                for column in 0..<outWidth {
                    let first = column * factor
                    sums.write(target + column * 4, columns: first..<min(first + factor, width), rows: rows)
                }
            }
            initialized = count
        }
        return RGBAImage(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// Column sums of one band of `factor` rows: R, G, B (times alpha when there is one) and
    /// alpha; without alpha, 32-bit sums (at most 65,535 rows of 16-bit samples: twice the lanes).
    private struct BandSums {
        let width: Int
        let hasAlpha: Bool
        let colourMax: UInt64
        let alphaMax: UInt64
        let sums: UnsafeMutablePointer<UInt64>
        let opaqueSums: UnsafeMutablePointer<UInt32>

        init(width: Int, colourBits: Int, alphaBits: Int?) {
            self.width = width
            hasAlpha = alphaBits != nil
            colourMax = UInt64((1 << min(16, max(1, colourBits))) - 1)
            alphaMax = UInt64((1 << min(16, max(1, alphaBits ?? 8))) - 1)
            sums = .allocate(capacity: width * 4)
            opaqueSums = .allocate(capacity: width * 3)
        }

        func deallocate() {
            sums.deallocate()
            opaqueSums.deallocate()
        }

        func clear() {
            if hasAlpha {
                sums.initialize(repeating: 0, count: width * 4)
            } else {
                opaqueSums.initialize(repeating: 0, count: width * 3)
            }
        }

        @inline(__always)
        func add<Colour: FixedWidthInteger & UnsignedInteger, Alpha: FixedWidthInteger & UnsignedInteger>(
            row y: Int, _: Colour.Type, _: Alpha.Type, red: Plane, green: Plane, blue: Plane, alpha: Plane?
        ) {
            let r = (red.base + y * red.stride).assumingMemoryBound(to: Colour.self)
            let g = (green.base + y * green.stride).assumingMemoryBound(to: Colour.self)
            let b = (blue.base + y * blue.stride).assumingMemoryBound(to: Colour.self)
            if let alpha {
                let a = (alpha.base + y * alpha.stride).assumingMemoryBound(to: Alpha.self)
                for x in 0..<width {
                    let weight = UInt64(a[x])
                    sums[x] &+= UInt64(r[x]) &* weight
                    sums[width + x] &+= UInt64(g[x]) &* weight
                    sums[2 * width + x] &+= UInt64(b[x]) &* weight
                    sums[3 * width + x] &+= weight
                }
            } else {
                for x in 0..<width { opaqueSums[x] &+= UInt32(r[x]) }
                for x in 0..<width { opaqueSums[width + x] &+= UInt32(g[x]) }
                for x in 0..<width { opaqueSums[2 * width + x] &+= UInt32(b[x]) }
            }
        }

        /// One output pixel from the sums of `columns` over `rows` rows.
        @inline(__always)
        func write(_ pixel: UnsafeMutablePointer<UInt8>, columns: Range<Int>, rows: Int) {
            var total = SIMD4<UInt64>()
            if hasAlpha {
                for x in columns { total &+= SIMD4(sums[x], sums[width + x], sums[2 * width + x], sums[3 * width + x]) }
            } else {
                for x in columns {
                    total &+= SIMD4(UInt64(opaqueSums[x]), UInt64(opaqueSums[width + x]), UInt64(opaqueSums[2 * width + x]), 0)
                }
            }
            let samples = Double(columns.count * rows)
            var scale = 255 / (samples * Double(colourMax))
            var alphaByte: Double = 255
            if hasAlpha {
                // Colour: Σ(c·a) / Σa in colour units, then to 8 bits; alpha: its mean, to 8 bits.
                let alphaSum = Double(total[3])
                alphaByte = (alphaSum * 255 / (samples * Double(alphaMax))).rounded()
                guard alphaByte >= 1 else {
                    pixel.update(repeating: 0, count: 4)
                    return
                }
                scale = 255 / (alphaSum * Double(colourMax))
            }
            pixel[0] = UInt8(min(255, Double(total[0]) * scale + 0.5))
            pixel[1] = UInt8(min(255, Double(total[1]) * scale + 0.5))
            pixel[2] = UInt8(min(255, Double(total[2]) * scale + 0.5))
            pixel[3] = UInt8(min(255, alphaByte))
        }
    }
}
