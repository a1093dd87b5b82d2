import CPNGRows

/// The fast path of PNG decoding, for the PNGs photo archives hold: 8-bit grey, grey + alpha, RGB
/// or RGBA, not interlaced, with no colour key and no gamma but sRGB's. Every chunk's CRC is
/// checked, the image data is inflated in one call by libdeflate, and the rows are unfiltered
/// (up to 16 at a time, as the resizer asks for them) and handed to the resizer as they are (it
/// widens them as it reads them), so a
/// large PNG is reduced to the working size as it decodes, without a full-size RGBA copy. The
/// pixels are exactly libpng's (`PNGCodec.decode`).
/// Any other PNG, and any irregularity at all, is left to libpng, whose verdicts and messages
/// stay the reference.
enum PNGRowDecoder {
    /// What the chunks of a PNG the fast path can take say.
    struct Layout: Equatable {
        var width: Int
        var height: Int
        /// Bytes a pixel: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA.
        var channels: Int
        /// Where the IDAT chunks' data lie, in order.
        var imageData: [Range<Int>]

        var rowBytes: Int { width * channels }
    }

    /// gAMA's value for sRGB's gamma (1 / 2.2 in units of 1/100000): what libpng assumes when a
    /// file has no gAMA, so the pixels are left as they are.
    private static let sRGBGamma: UInt32 = 45_455

    /// The photo at about `workingSize` on the long side (whole when it is under twice that,
    /// else reduced by `ImageResizer.reducedToWorkingSize`'s whole factor, as it decodes) and
    /// its full size; nil when the PNG is one for libpng. Throws only for a size over `maxPixels`.
    static func decodeReduced(
        _ bytes: [UInt8], maxPixels: Int, workingSize: Int
    ) throws(ProcessingError) -> (image: RGBAImage, width: Int, height: Int)? {
        try PNGCodec.refuseDeclaredSize(of: bytes, over: maxPixels)
        guard let layout = layout(bytes) else { return nil }
        let reduced = ImageResizer.reducedSize(width: layout.width, height: layout.height, workingSize: workingSize)
        let image = withRows(of: bytes, layout: layout) { row in
            guard let (width, height) = reduced else {
                return RGBAImage(width: layout.width, height: layout.height, pixels: wholeImage(layout, row))
            }
            return ImageResizer.resized(
                sourceWidth: layout.width, sourceHeight: layout.height, channels: layout.channels,
                width: width, height: height, row: row)
        }
        return image.map { ($0, layout.width, layout.height) }
    }

    /// The layout of a PNG the fast path takes, or nil: any other format or feature, a chunk that
    /// does not fit or fails its CRC, an unknown critical chunk, image data that is not one run of
    /// IDAT chunks, or no IEND.
    static func layout(_ bytes: [UInt8]) -> Layout? {
        bytes.withUnsafeBytes { data -> Layout? in
            guard data.starts(with: PNGCodec.signature) else { return nil }
            var position = PNGCodec.signature.count
            var header: Layout?
            var imageData: [Range<Int>] = []
            var imageDataEnded = false
            while position + 12 <= data.count {
                let length = Int(PNGCodec.readUInt32(data, at: position))
                guard length <= 0x7FFF_FFFF, length + 12 <= data.count - position else { return nil }
                let type = Array(data[position + 4 ..< position + 8])
                let body = position + 8 ..< position + 8 + length
                guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }),
                      ZlibDecompressor.crc32(UnsafeRawBufferPointer(rebasing: data[position + 4 ..< body.upperBound]))
                        == PNGCodec.readUInt32(data, at: body.upperBound)
                else { return nil }
                let isImageData = type.elementsEqual("IDAT".utf8)
                if !imageData.isEmpty && !isImageData { imageDataEnded = true }
                switch String(decoding: type, as: UTF8.self) {
                case "IHDR":
                    guard header == nil, position == PNGCodec.signature.count, length == 13 else { return nil }
                    header = imageHeader(UnsafeRawBufferPointer(rebasing: data[body]))
                    guard header != nil else { return nil }
                case "IDAT":
                    guard header != nil, !imageDataEnded else { return nil }
                    imageData.append(body)
                case "IEND":
                    guard var layout = header, !imageData.isEmpty else { return nil }
                    layout.imageData = imageData
                    return layout
                case "gAMA":
                    guard length == 4, PNGCodec.readUInt32(data, at: body.lowerBound) == sRGBGamma else { return nil }
                case "tRNS", "sBIT", "PLTE":
                    return nil  // a colour key, significant bits, a palette: libpng's work
                default:
                    // Other ancillary chunks (lower-case first letter) do not change the pixels;
                    // an unknown critical one is libpng's to refuse.
                    guard type[0] >= 0x61 else { return nil }
                }
                position = body.upperBound + 4
            }
            return nil
        }
    }

    /// IHDR's fields, when they describe an image this path decodes.
    private static func imageHeader(_ data: UnsafeRawBufferPointer) -> Layout? {
        let width = Int(PNGCodec.readUInt32(data, at: 0)), height = Int(PNGCodec.readUInt32(data, at: 4))
        let (bitDepth, colourType, compression, filter, interlace) = (data[8], data[9], data[10], data[11], data[12])
        // libpng refuses sides over a million pixels by default; those stay its verdict.
        guard (1...1_000_000).contains(width), (1...1_000_000).contains(height),
              bitDepth == 8, compression == 0, filter == 0, interlace == 0 else { return nil }
        let channels: Int
        switch colourType {
        case 0: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        return Layout(width: width, height: height, channels: channels, imageData: [])
    }

    /// Inflates the image data and runs `body` with a function that returns row `y` unfiltered,
    /// in the PNG's own samples (`rowBytes`), for y in increasing order. Nil when the
    /// data does not inflate to exactly the image's size or a row names an unknown filter.
    private static func withRows(
        of bytes: [UInt8], layout: Layout, _ body: ((Int) -> UnsafePointer<UInt8>) -> RGBAImage
    ) -> RGBAImage? {
        let stride = layout.rowBytes + 1
        // One byte past the rows, which the row filters may read (and leave as it was). The
        // buffer (44-59 MB for a 5120 x 2880 wallpaper) is borrowed from the pool the network's
        // arenas come from, so a decode adds no buffer of its own to the peak memory.
        let bytesNeeded = stride * layout.height + 1
        return ScratchBuffers.shared.withBuffer(bytes: bytesNeeded) { buffer in
            unfilteredRows(UnsafeMutableRawBufferPointer(start: buffer, count: bytesNeeded), of: bytes, layout: layout, body)
        }
    }

    /// `withRows` in the buffer `raw` (the image data and one byte).
    private static func unfilteredRows(
        _ raw: UnsafeMutableRawBufferPointer, of bytes: [UInt8], layout: Layout, _ body: ((Int) -> UnsafePointer<UInt8>) -> RGBAImage
    ) -> RGBAImage? {
        let stride = layout.rowBytes + 1
        raw[stride * layout.height] = 0
        let image = UnsafeMutableRawBufferPointer(rebasing: raw[..<(stride * layout.height)])
        let inflated = bytes.withUnsafeBytes { data -> Bool in
            if layout.imageData.count == 1, let only = layout.imageData.first {
                return ZlibDecompressor.decompress(UnsafeRawBufferPointer(rebasing: data[only]), into: image)
            }
            var joined: [UInt8] = []
            joined.reserveCapacity(layout.imageData.reduce(0) { $0 + $1.count })
            for range in layout.imageData { joined += data[range] }
            return joined.withUnsafeBytes { ZlibDecompressor.decompress($0, into: image) }
        }
        guard inflated, (0..<layout.height).allSatisfy({ raw[$0 * stride] <= 4 }) else { return nil }
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let path = ConvolutionKernels.default == .avx512 ? Int32(PNG_ROWS_BEST) : Int32(PNG_ROWS_PAIRS)
        var nextRow = 0
        return body { y in
            // Rows are unfiltered in place and in order, so each one is the next one's prior row;
            // sixteen at a time, which the C side runs side by side.
            if nextRow <= y {
                let count = min(layout.height, max(y + 1, nextRow + 16)) - nextRow
                _ = png_rows_unfilter_image_rows(base, layout.rowBytes, UInt32(layout.channels), nextRow, count, path)
                nextRow += count
            }
            return UnsafePointer(base + y * stride + 1)
        }
    }

    /// Every row, in order, widened to one RGBA buffer.
    private static func wholeImage(_ layout: Layout, _ row: (Int) -> UnsafePointer<UInt8>) -> [UInt8] {
        let rowBytes = layout.width * 4
        return [UInt8](unsafeUninitializedCapacity: rowBytes * layout.height) { buffer, initializedCount in
            guard let start = buffer.baseAddress else { return }
            for y in 0..<layout.height {
                png_rows_to_rgba(row(y), start + y * rowBytes, layout.width, UInt32(layout.channels))
            }
            initializedCount = rowBytes * layout.height
        }
    }
}
