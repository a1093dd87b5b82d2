/// The top-level boxes of an ISO base media file (HEIF, AVIF), walked in Swift with every size
/// checked against the data, to tell a file cut short from one that is damaged before libheif
/// reads it (libheif reports both as invalid input).
enum ISOBoxes {
    /// Throws `.truncated` when a top-level box claims more bytes than the data holds, or the data
    /// ends inside a box header.
    static func checkComplete(_ bytes: [UInt8]) throws(ProcessingError) {
        guard !bytes.isEmpty else { throw .truncated("empty file") }
        var position = 0
        while position < bytes.count {
            guard position + 8 <= bytes.count else {
                throw .truncated("the data ends inside a box header at byte \(position)")
            }
            var size = UInt64(readUInt32(bytes, at: position))
            var header = 8
            if size == 1 {
                guard position + 16 <= bytes.count else { throw .truncated("the data ends inside a box header at byte \(position)") }
                size = UInt64(readUInt32(bytes, at: position + 8)) << 32 | UInt64(readUInt32(bytes, at: position + 12))
                header = 16
            } else if size == 0 {
                return  // The last box runs to the end of the file.
            }
            guard size >= UInt64(header) else { return }  // Not a box size: leave the verdict to libheif.
            let type = String(decoding: bytes[position + 4 ..< position + 8], as: UTF8.self)
            let remaining = UInt64(bytes.count - position)
            guard size <= remaining else {
                throw .truncated("the '\(type)' box needs \(size) bytes, the data ends after \(remaining)")
            }
            position += Int(size)
        }
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
