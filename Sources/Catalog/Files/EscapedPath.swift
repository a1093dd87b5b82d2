import Foundation

/// File names that are not valid UTF-8 are kept as text losslessly: each byte that is not part of valid
/// UTF-8 is written `\xNN` and a backslash `\\` (what `printf '%b'` turns back into the bytes). Every
/// system call on a path goes through ``withSystemPath(_:_:)``, which turns such text back into the bytes.
public enum EscapedPath {
    /// The bytes of a file name as text: valid UTF-8 as it is, every other byte as `\xNN`, a backslash as `\\`.
    public static func escape(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < bytes.count {
            var decoded: String?
            for length in 1...4 where index + length <= bytes.count {
                if let scalar = String(validating: bytes[index..<(index + length)], as: UTF8.self) {
                    decoded = scalar
                    index += length
                    break
                }
            }
            if let decoded {
                text += decoded == "\\" ? "\\\\" : decoded
            } else {
                text += String(format: "\\x%02X", bytes[index])
                index += 1
            }
        }
        return text
    }

    /// Whether `path` holds an escape made by ``escape(_:)`` (and no file has that literal name).
    public static func isEscaped(_ path: String) -> Bool {
        unescaped(path) != nil
    }

    /// The bytes an escaped path stands for; nil when the path is plain text (no escapes, an escape
    /// that would decode to valid UTF-8, or a file exists under the literal name).
    static func unescaped(_ path: String) -> [UInt8]? {
        guard path.contains("\\") else { return nil }
        var bytes: [UInt8] = []
        let utf8 = Array(path.utf8)
        var index = 0
        var sawByte = false
        while index < utf8.count {
            if utf8[index] == 0x5C, index + 1 < utf8.count {
                if utf8[index + 1] == 0x5C {
                    bytes.append(0x5C)
                    index += 2
                    continue
                }
                if utf8[index + 1] == 0x78, index + 3 < utf8.count,
                    let value = UInt8(String(decoding: utf8[(index + 2)...(index + 3)], as: UTF8.self), radix: 16)
                {
                    bytes.append(value)
                    sawByte = true
                    index += 4
                    continue
                }
            }
            bytes.append(utf8[index])
            index += 1
        }
        guard sawByte, String(validating: bytes, as: UTF8.self) == nil else { return nil }
        var info = stat()
        if lstat(path, &info) == 0 { return nil }
        return bytes
    }

    /// Calls `body` with the C path the system should see for `path` (the bytes, for an escaped one).
    public static func withSystemPath<Result>(_ path: String, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        guard let bytes = unescaped(path) else { return path.withCString(body) }
        let characters = bytes.map { CChar(bitPattern: $0) } + [0]
        return characters.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Whether something is at `path` (a dangling link counts as nothing), escaped paths included.
    public static func exists(_ path: String) -> Bool {
        withSystemPath(path) { Glibc.access($0, F_OK) } == 0
    }
}
