/// The size a PNG declares in its first bytes, read without decoding it (verify compares it with the
/// size the catalog recorded).
enum PNGHeader {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Width and height from a PNG's signature and IHDR chunk (its first 24 bytes), or nil.
    static func size(_ head: [UInt8]) -> (width: Int, height: Int)? {
        guard head.count >= 24, Array(head[0..<8]) == signature, Array(head[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func number(_ at: Int) -> Int { head[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}
