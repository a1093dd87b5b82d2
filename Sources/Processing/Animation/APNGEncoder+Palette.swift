extension APNGEncoder {
    /// An APNG of `frames` reduced to one palette of at most `colors` entries (see
    /// ``PaletteQuantizer``): one byte a pixel, and after the first frame only the rectangle that
    /// changed is stored. Frames identical to the one before are merged into it. Deterministic.
    public static func encodePalette(
        _ frames: [RGBAImage], durations: [Int], colors: Int, loops: Int = 0
    ) throws(ProcessingError) -> [UInt8] {
        guard let first = frames.first else { throw .encodingFailed("an animation needs at least one frame") }
        guard durations.count == frames.count else { throw .encodingFailed("\(frames.count) frames but \(durations.count) durations") }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw .encodingFailed("an animation's frames must all be \(first.width)x\(first.height)")
        }
        let indexed = PaletteQuantizer.quantize(frames, colors: colors)
        let planes = mergingRepeats(indexed.indices, durations: durations)
        let width = first.width, height = first.height

        var output: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let paletteColourType: UInt8 = 3
        output += PNGCodec.chunk(type: "IHDR", data: bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, paletteColourType, 0, 0, 0])
        output += PNGCodec.chunk(type: "PLTE", data: indexed.palette.flatMap { [$0.red, $0.green, $0.blue] })
        output += PNGCodec.chunk(type: "tRNS", data: indexed.palette.map(\.alpha))
        output += PNGCodec.chunk(type: "acTL", data: bigEndian(UInt32(planes.count)) + bigEndian(UInt32(max(0, loops))))
        var sequence: UInt32 = 0
        var previous: [UInt8]?
        for (plane, duration) in planes {
            let region = previous.map { changedRegion(from: $0, to: plane, width: width, height: height) }
                ?? Region(x: 0, y: 0, width: width, height: height)
            output += PNGCodec.chunk(type: "fcTL", data: frameControl(sequence, region: region, milliseconds: duration))
            sequence += 1
            let png = try PNGCodec.encodeIndices(region.crop(plane, width: width), width: region.width, height: region.height)
            for data in PNGChunkList(png).imageData {
                if previous == nil {
                    output += PNGCodec.chunk(type: "IDAT", data: data)
                } else {
                    output += PNGCodec.chunk(type: "fdAT", data: bigEndian(sequence) + data)
                    sequence += 1
                }
            }
            previous = plane
        }
        output += PNGCodec.chunk(type: "IEND", data: [])
        return output
    }

    /// A rectangle of the canvas.
    struct Region: Equatable {
        var x: Int, y: Int, width: Int, height: Int

        /// The rectangle's bytes out of a `width`-wide plane, row by row.
        func crop(_ plane: [UInt8], width canvasWidth: Int) -> [UInt8] {
            if x == 0, self.width == canvasWidth { return Array(plane[(y * canvasWidth)..<((y + height) * canvasWidth)]) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(self.width * height)
            for row in y..<(y + height) { bytes += plane[(row * canvasWidth + x)..<(row * canvasWidth + x + self.width)] }
            return bytes
        }
    }

    /// The smallest rectangle holding every pixel that differs; one pixel when none does (a frame
    /// must hold at least one).
    static func changedRegion(from previous: [UInt8], to plane: [UInt8], width: Int, height: Int) -> Region {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            let row = y * width
            var x = 0
            while x < width {
                if previous[row + x] != plane[row + x] {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = y
                }
                x += 1
            }
        }
        guard maxX >= 0 else { return Region(x: 0, y: 0, width: 1, height: 1) }
        return Region(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The planes with each run of identical ones kept once, shown for the run's total time.
    static func mergingRepeats(_ planes: [[UInt8]], durations: [Int]) -> [(plane: [UInt8], milliseconds: Int)] {
        var merged: [(plane: [UInt8], milliseconds: Int)] = []
        for (plane, duration) in zip(planes, durations) {
            // A frame's delay is 16 bits of milliseconds: a run longer than that starts a new frame.
            if let last = merged.last, last.plane == plane, last.milliseconds + duration <= 65_535 {
                merged[merged.count - 1].milliseconds += duration
            } else {
                merged.append((plane, duration))
            }
        }
        return merged
    }

    /// An `fcTL` for `region`: the region replaces what was there (source blend), and stays for the
    /// next frame to draw over (no disposal), which is what lets later frames store only changes.
    static func frameControl(_ sequence: UInt32, region: Region, milliseconds: Int) -> [UInt8] {
        let delay = UInt16(clamping: max(1, milliseconds))
        let disposeNone: UInt8 = 0, blendSource: UInt8 = 0
        return bigEndian(sequence) + bigEndian(UInt32(region.width)) + bigEndian(UInt32(region.height))
            + bigEndian(UInt32(region.x)) + bigEndian(UInt32(region.y))
            + [UInt8(delay >> 8), UInt8(delay & 0xFF), 0x03, 0xE8] + [disposeNone, blendSource]
    }
}
