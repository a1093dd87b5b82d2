import Foundation

/// The names in one folder, read with readdir(3) so that no name is lost: names that are not valid
/// UTF-8 (which Foundation's listing drops silently) come back separately, escaped (see ``escape(_:)``).
struct FolderListing: Sendable {
    var names: [String] = []
    /// Names that are not valid UTF-8, each byte that is not part of valid UTF-8 written as `\xNN`.
    var undecodable: [String] = []

    static func read(_ folder: String) -> Result<FolderListing, FolderListingError> {
        guard let directory = opendir(folder) else { return .failure(FolderListingError(FileKind.plainReason(errno))) }
        defer { closedir(directory) }
        var listing = FolderListing()
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(FolderListingError(FileKind.plainReason(errno))) }
                break
            }
            let bytes: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            if let name = String(validating: bytes, as: UTF8.self) {
                listing.names.append(name)
            } else {
                listing.undecodable.append(escape(bytes))
            }
        }
        return .success(listing)
    }

    /// The bytes of a file name as text: valid UTF-8 as it is, every other byte as `\xNN` (and a
    /// backslash as `\\`), so the escape is lossless and unambiguous.
    static func escape(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < bytes.count {
            // The longest valid UTF-8 sequence starting here (1 to 4 bytes).
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
}

/// Why a folder could not be listed, in plain words.
struct FolderListingError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
