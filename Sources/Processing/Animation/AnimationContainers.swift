/// The blocks of a GIF, walked in Swift with every length checked: how many frames it has (one
/// means a still), its loop count, and whether it is cut short.
struct GIFBlocks {
    private(set) var frameCount = 0
    /// The NETSCAPE2.0 loop count (0: forever), nil without that extension (played once).
    private(set) var loopCount: Int?
    /// True when the data ends before the trailer (`;`).
    private(set) var isTruncated = true

    init(_ bytes: [UInt8]) {
        guard bytes.count >= 13 else { return }
        var position = 13
        if bytes[10] & 0x80 != 0 { position += 3 << (Int(bytes[10] & 0x07) + 1) }
        while position < bytes.count {
            switch bytes[position] {
            case 0x3B:
                isTruncated = false
                return
            case 0x21:
                guard position + 2 < bytes.count else { return }
                let label = bytes[position + 1]
                let dataStart = position + 2
                if label == 0xFF, dataStart + 16 < bytes.count, bytes[dataStart] == 11,
                   bytes[dataStart + 1 ..< dataStart + 12].elementsEqual("NETSCAPE2.0".utf8),
                   bytes[dataStart + 12] >= 3, bytes[dataStart + 13] == 1 {
                    loopCount = Int(bytes[dataStart + 14]) | Int(bytes[dataStart + 15]) << 8
                }
                guard let end = Self.skipSubBlocks(bytes, from: dataStart) else { return }
                position = end
            case 0x2C:
                guard position + 10 < bytes.count else { return }
                let packed = bytes[position + 9]
                var dataStart = position + 10
                if packed & 0x80 != 0 { dataStart += 3 << (Int(packed & 0x07) + 1) }
                // The LZW code size byte, then the image data's sub-blocks.
                guard dataStart < bytes.count, let end = Self.skipSubBlocks(bytes, from: dataStart + 1) else { return }
                frameCount += 1
                position = end
            default:
                // Not a block a GIF can have: damaged, not cut. Leave the verdict to the decoder.
                isTruncated = false
                return
            }
        }
    }

    /// The position after the sub-blocks starting at `start` (each a length byte, 0 ends them), or
    /// nil when the data ends first.
    private static func skipSubBlocks(_ bytes: [UInt8], from start: Int) -> Int? {
        var position = start
        while position < bytes.count {
            let length = Int(bytes[position])
            position += 1 + length
            if length == 0 { return position }
        }
        return nil
    }
}

/// The chunks of a PNG up to its first `IDAT`, walked in Swift: whether an `acTL` chunk makes it
/// an APNG, its loop count, and whether the data ends before `IEND`.
struct PNGAnimationChunks {
    private(set) var isAnimated = false
    /// `num_plays` from `acTL` (0: forever).
    private(set) var loopCount: Int?
    private(set) var isTruncated = true

    init(_ bytes: [UInt8]) {
        var position = 8
        var seenImageData = false
        while position + 8 <= bytes.count {
            let length = Int(Self.readUInt32(bytes, at: position))
            let type = String(decoding: bytes[position + 4 ..< position + 8], as: UTF8.self)
            let dataStart = position + 8
            guard length <= bytes.count - dataStart - 4 else { return }  // Length, CRC included.
            if type == "acTL", !seenImageData, length >= 8 {
                isAnimated = true
                loopCount = Int(Self.readUInt32(bytes, at: dataStart + 4))
            }
            if type == "IDAT" { seenImageData = true }
            if type == "IEND" {
                isTruncated = false
                return
            }
            position = dataStart + length + 4
        }
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}

/// The first elements of a Matroska file: its DocType and whether its Segment claims more bytes
/// than the data holds.
enum MatroskaHeader {
    /// True when the EBML header's DocType is `webm`.
    static func isWebM(_ bytes: [UInt8]) -> Bool {
        // The DocType element (ID 42 82) sits in the first few dozen bytes of the header.
        let head = Array(bytes.prefix(64))
        guard head.count >= 8 else { return false }
        for index in 0 ..< head.count - 6 where head[index] == 0x42 && head[index + 1] == 0x82 {
            let size = Int(head[index + 2] & 0x7F)
            if head[index + 2] & 0x80 != 0, index + 3 + size <= head.count {
                return head[index + 3 ..< index + 3 + size].elementsEqual("webm".utf8)
            }
        }
        return false
    }

    /// True when the data ends inside the EBML header, or the Segment after it declares a size
    /// larger than what is left (an unknown size, as live recordings write, is taken as complete).
    static func isTruncated(_ bytes: [UInt8]) -> Bool {
        guard let (headerSize, headerLength) = variableInteger(bytes, at: 4) else { return true }
        let segment = 4 + headerLength + headerSize
        guard segment + 4 <= bytes.count else { return true }
        guard bytes[segment ..< segment + 4].elementsEqual([0x18, 0x53, 0x80, 0x67]) else { return false }
        guard let (segmentSize, segmentLength) = variableInteger(bytes, at: segment + 4) else { return true }
        let unknown = (1 << (7 * segmentLength)) - 1
        return segmentSize != unknown && segment + 4 + segmentLength + segmentSize > bytes.count
    }

    /// An EBML variable-size integer at `offset`: its value and its length in bytes.
    private static func variableInteger(_ bytes: [UInt8], at offset: Int) -> (value: Int, length: Int)? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let length = bytes[offset].leadingZeroBitCount + 1
        guard offset + length <= bytes.count else { return nil }
        var value = Int(bytes[offset]) & (0xFF >> length)
        for index in 1 ..< length { value = value << 8 | Int(bytes[offset + index]) }
        return (value, length)
    }
}
