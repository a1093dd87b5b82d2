import Foundation

/// The names in one folder, read with readdir(3) so that no name is lost: names that are not valid
/// UTF-8 (which Foundation's listing drops silently) come back separately, escaped (see `EscapedPath`).
struct FolderListing: Sendable {
    var names: [String] = []
    /// Names that are not valid UTF-8, escaped (see `EscapedPath`).
    var undecodable: [String] = []

    static func read(_ folder: String) -> Result<FolderListing, FolderListingError> {
        guard let directory = EscapedPath.withSystemPath(folder, { opendir($0) }) else { return .failure(FolderListingError(FileKind.plainReason(errno))) }
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
                listing.undecodable.append(EscapedPath.escape(bytes))
            }
        }
        return .success(listing)
    }
}

/// Why a folder could not be listed, in plain words.
struct FolderListingError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
