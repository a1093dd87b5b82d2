/// Writes an animated PNG (APNG, the format Signal and iMessage take for animated stickers): every
/// frame a whole picture of one size, shown for its own time, the first frame also the picture that
/// programs without APNG show. Each frame is compressed by ``PNGCodec`` and its image data carried
/// into the animation's chunks, so a frame costs what it would as a PNG of its own.
public enum APNGEncoder {
    /// The APNG of `frames` (one size), frame i shown for `durations[i]` milliseconds (1...65,535),
    /// played `loops` times (0: for ever).
    public static func encode(
        _ frames: [RGBAImage], durations: [Int], loops: Int = 0, compression: PNGCompression = .fast
    ) throws(ProcessingError) -> [UInt8] {
        guard let first = frames.first else { throw .encodingFailed("an animation needs at least one frame") }
        guard durations.count == frames.count else { throw .encodingFailed("\(frames.count) frames but \(durations.count) durations") }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw .encodingFailed("an animation's frames must all be \(first.width)x\(first.height)")
        }
        var output: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            let chunks = PNGChunkList(try PNGCodec.encode(frame, compression: compression))
            if index == 0 {
                // The header and what stands before the image data (colour information), then the animation's control.
                for chunk in chunks.beforeImageData { output += PNGCodec.chunk(type: chunk.type, data: chunk.data) }
                output += PNGCodec.chunk(type: "acTL", data: bigEndian(UInt32(frames.count)) + bigEndian(UInt32(max(0, loops))))
            }
            output += PNGCodec.chunk(type: "fcTL", data: frameControl(sequence, frame: frame, milliseconds: durations[index]))
            sequence += 1
            for data in chunks.imageData {
                if index == 0 {
                    output += PNGCodec.chunk(type: "IDAT", data: data)
                } else {
                    output += PNGCodec.chunk(type: "fdAT", data: bigEndian(sequence) + data)
                    sequence += 1
                }
            }
        }
        output += PNGCodec.chunk(type: "IEND", data: [])
        return output
    }

    /// An `fcTL` chunk's data: the whole canvas, the delay as a fraction of a second, nothing left
    /// of the frame before (each frame replaces the canvas, its transparency included).
    static func frameControl(_ sequence: UInt32, frame: RGBAImage, milliseconds: Int) -> [UInt8] {
        let delay = UInt16(clamping: max(1, milliseconds))
        let disposeNone: UInt8 = 0, blendSource: UInt8 = 0
        return bigEndian(sequence) + bigEndian(UInt32(frame.width)) + bigEndian(UInt32(frame.height))
            + bigEndian(UInt32(0)) + bigEndian(UInt32(0))
            + [UInt8(delay >> 8), UInt8(delay & 0xFF), 0x03, 0xE8] + [disposeNone, blendSource]
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// The chunks of a PNG file, in order (no check of their CRCs: the file is one this program wrote).
struct PNGChunkList {
    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    var chunks: [Chunk] = []

    init(_ png: [UInt8]) {
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(PNGCodec.readUInt32(png, at: offset))
            guard offset + 12 + length <= png.count else { break }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append(Chunk(type: type, data: Array(png[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
    }

    /// The chunks before the first image data: the header first.
    var beforeImageData: [Chunk] { Array(chunks.prefix { $0.type != "IDAT" }) }

    /// The data of every `IDAT` chunk, in order.
    var imageData: [[UInt8]] { chunks.filter { $0.type == "IDAT" }.map(\.data) }
}
