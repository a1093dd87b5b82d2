import Foundation
import ZIPFoundation

/// Reproducible zip archives through ZIPFoundation: entries in the order given (the caller sorts
/// them), every entry dated 1980-01-01 00:00:00 (the DOS epoch, the earliest a zip can say;
/// ZIPFoundation converts with `gmtime`, so the time zone does not matter), permissions 0644,
/// already-compressed images stored and text deflated (zlib is deterministic for the same input
/// and level). The same files give the same bytes.
enum ZipArchiveBuilder {
    static let fixedDate = Date(timeIntervalSince1970: 315_532_800)

    /// The archive of `files` (relative, `/`-separated paths, checked by the caller).
    static func archive(_ files: [(path: String, bytes: [UInt8])]) throws -> [UInt8] {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (path, bytes) in files {
            let data = Data(bytes)
            let compressed = path.hasSuffix(".json") || path.hasSuffix(".txt")
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: fixedDate,
                permissions: 0o644, compressionMethod: compressed ? .deflate : .none
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        guard let data = archive.data else { throw CocoaError(.fileWriteUnknown) }
        return Array(data)
    }
}
