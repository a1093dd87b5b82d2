@testable import Processing

/// PNGs written byte by byte for the decoder tests: any colour type and bit depth, a chosen (or
/// random) filter on each row, extra chunks after IHDR, and damage on request. The image data is
/// stored in uncompressed deflate blocks, so no encoder decides anything.
enum TestPNG {
    /// A `width` x `height` image of random samples (`channels` 1-4, 8 or 16 bits), each row
    /// filtered with a random filter type, or with `filterByte` written as every row's type.
    /// `dropRows` leaves that many rows out of the image data.
    static func make(
        width: Int, height: Int, channels: Int, generator: inout SplitMix64, bitDepth: Int = 8,
        chunks: [(String, [UInt8])] = [], filterByte: UInt8? = nil, dropRows: Int = 0
    ) -> [UInt8] {
        let colourType: UInt8 = [1: 0, 2: 4, 3: 2, 4: 6][channels] ?? 6
        let bytesPerPixel = channels * bitDepth / 8
        let rowBytes = width * bytesPerPixel
        var raw: [UInt8] = []
        var prior: [UInt8]?
        for _ in 0..<(height - dropRows) {
            let row = (0..<rowBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let filter = Int.random(in: 0...4, using: &generator)
            raw.append(filterByte ?? UInt8(filter))
            raw += filtered(row, prior: prior, bytesPerPixel: bytesPerPixel, filter: filter)
            prior = row
        }
        let header = uint32(UInt32(width)) + uint32(UInt32(height)) + [UInt8(bitDepth), colourType, 0, 0, 0]
        var png = PNGCodec.signature + PNGCodec.chunk(type: "IHDR", data: header)
        for (type, data) in chunks { png += PNGCodec.chunk(type: type, data: data) }
        png += PNGCodec.chunk(type: "IDAT", data: storedZlib(raw))
        png += PNGCodec.chunk(type: "IEND", data: [])
        return png
    }

    /// `row` with PNG filter `filter` applied, as an encoder writes it.
    static func filtered(_ row: [UInt8], prior: [UInt8]?, bytesPerPixel: Int, filter: Int) -> [UInt8] {
        row.indices.map { index in
            let left = index >= bytesPerPixel ? Int(row[index - bytesPerPixel]) : 0
            let up = prior.map { Int($0[index]) } ?? 0
            let upLeft = index >= bytesPerPixel ? prior.map { Int($0[index - bytesPerPixel]) } ?? 0 : 0
            let predicted: Int
            switch filter {
            case 1: predicted = left
            case 2: predicted = up
            case 3: predicted = (left + up) / 2
            case 4:
                let estimate = left + up - upLeft
                let (toLeft, toUp, toUpLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                predicted = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft
            default: predicted = 0
            }
            return UInt8(truncatingIfNeeded: Int(row[index]) - predicted)
        }
    }

    static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Where the first IDAT chunk's data begins.
    static func firstIDATOffset(_ png: [UInt8]) -> Int {
        var position = PNGCodec.signature.count
        while !png[position + 4 ..< position + 8].elementsEqual("IDAT".utf8) {
            position += 12 + Int(PNGCodec.readUInt32(png, at: position))
        }
        return position + 8
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    private static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let length = UInt16(end - start)
            stream += [end == data.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream += data[start..<end]
            start = end
        } while start < data.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return stream + uint32(b << 16 | a)
    }
}

/// Processing's fixed-seed generator, so test images are the same on every run.
extension SplitMix64: RandomNumberGenerator {}
