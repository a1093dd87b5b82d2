@testable import Processing

/// Images and files made in code, so every expectation is exact.
enum Fixtures {
    typealias Color = (red: UInt8, green: UInt8, blue: UInt8)
    static let red: Color = (230, 20, 20)
    static let green: Color = (20, 200, 40)
    static let blue: Color = (20, 40, 220)
    static let yellow: Color = (240, 230, 30)

    /// Four uniform quadrants: red top left, green top right, blue bottom left, yellow bottom right.
    static func quadrants(width: Int, height: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let color = switch (x < width / 2, y < height / 2) {
                case (true, true): red
                case (false, true): green
                case (true, false): blue
                case (false, false): yellow
                }
                let offset = (y * width + x) * 4
                pixels[offset] = color.red
                pixels[offset + 1] = color.green
                pixels[offset + 2] = color.blue
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Deterministic noise (a JPEG of it is large and slow to decode, like a grainy photo).
    static func noise(width: Int, height: Int, seed: UInt64 = 0x5EED) -> RGBAImage {
        var state = seed
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for index in pixels.indices where index % 4 != 3 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            pixels[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Whether `pixel` is within `tolerance` of `color` on every channel (JPEG is lossy).
    static func matches(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8), _ color: Color, tolerance: Int = 24) -> Bool {
        abs(Int(pixel.red) - Int(color.red)) <= tolerance
            && abs(Int(pixel.green) - Int(color.green)) <= tolerance
            && abs(Int(pixel.blue) - Int(color.blue)) <= tolerance
    }

    /// The JPEG with the frame header's size replaced (the pixels stay as they are).
    static func jpeg(_ jpeg: [UInt8], patchedToWidth width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        guard let frame = JPEGSegments(jpeg).segments.first(where: { (0xC0...0xC2).contains($0.marker) }) else { return bytes }
        let start = frame.payload.lowerBound
        bytes[start + 1] = UInt8(height >> 8)
        bytes[start + 2] = UInt8(height & 0xFF)
        bytes[start + 3] = UInt8(width >> 8)
        bytes[start + 4] = UInt8(width & 0xFF)
        return bytes
    }

    /// The PNG with IHDR's size replaced and its CRC recomputed, so only the size is wrong.
    static func png(_ png: [UInt8], patchedToWidth width: Int, height: Int) -> [UInt8] {
        var bytes = png
        let size = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        bytes.replaceSubrange(16..<24, with: size)
        let crc = PNGCodec.crc32(bytes[12..<29])  // type + 13 data bytes
        bytes.replaceSubrange(29..<33, with: bigEndian(crc))
        return bytes
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A JPEG with an APP1 segment holding exactly `payload` right after SOI.
    static func jpeg(_ jpeg: [UInt8], withAPP1 payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }
}

/// A little-endian TIFF structure written by hand, for EXIF that `ExifWriter` would never write
/// (other date tags, zero denominators, broken offsets).
struct TIFFBuilder {
    enum Format: UInt16 {
        case byte = 1, ascii = 2, short = 3, long = 4, rational = 5
    }

    struct Entry {
        var tag: UInt16
        var format: Format
        var count: Int
        var value: [UInt8]

        static func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return Entry(tag: tag, format: .ascii, count: bytes.count, value: bytes)
        }

        static func short(_ tag: UInt16, _ value: UInt16) -> Entry {
            Entry(tag: tag, format: .short, count: 1, value: [UInt8(value & 0xFF), UInt8(value >> 8)])
        }

        static func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
            Entry(tag: tag, format: .rational, count: values.count, value: values.flatMap { little($0.0) + little($0.1) })
        }
    }

    var ifd0: [Entry] = []
    var exif: [Entry] = []

    static func little(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    /// `II*\0`, IFD0 at offset 8, then the EXIF IFD (pointed to from IFD0) when it has entries.
    func tiff() -> [UInt8] {
        var ifd0 = self.ifd0
        if !exif.isEmpty { ifd0.append(Entry(tag: 0x8769, format: .long, count: 1, value: [0, 0, 0, 0])) }
        ifd0.sort { $0.tag < $1.tag }
        var output: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Self.little(8)
        let exifOffsetPatch = Self.appendIFD(ifd0, to: &output)
        if !exif.isEmpty, let patch = exifOffsetPatch {
            let offset = Self.little(UInt32(output.count))
            output.replaceSubrange(patch..<patch + 4, with: offset)
            _ = Self.appendIFD(exif.sorted { $0.tag < $1.tag }, to: &output)
        }
        return output
    }

    /// Appends an IFD and its out-of-line values; returns where the EXIF pointer's value lies.
    private static func appendIFD(_ entries: [Entry], to output: inout [UInt8]) -> Int? {
        let start = output.count
        let dataStart = start + 2 + entries.count * 12 + 4
        var data: [UInt8] = []
        var pointerPatch: Int?
        output += [UInt8(entries.count & 0xFF), UInt8(entries.count >> 8)]
        for entry in entries {
            output += [UInt8(entry.tag & 0xFF), UInt8(entry.tag >> 8), UInt8(entry.format.rawValue), 0]
            output += little(UInt32(entry.count))
            if entry.tag == 0x8769 { pointerPatch = output.count }
            if entry.value.count <= 4 {
                output += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                output += little(UInt32(dataStart + data.count))
                data += entry.value
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        output += little(0)
        output += data
        return pointerPatch
    }
}
