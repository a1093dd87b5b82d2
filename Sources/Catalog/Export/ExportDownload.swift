import Foundation

/// An export as one file to download: what `catalog export` writes, run into a private temporary
/// folder. A format that writes one file (`whatsapp` → NAME.wastickers, `zip` → NAME.zip) gives that
/// file's bytes unchanged; a format that writes folders (`png`, `telegram`, `signal`, `imessage`, or
/// any split pack) gives a zip of everything written, with the same paths under it as on disk.
public struct ExportDownload: Sendable {
    /// The name to save the download as.
    public var fileName: String
    public var contentType: String
    /// A file in a temporary folder: the caller streams it, then calls ``discard()``.
    public var file: URL
    public var report: ExportReport
    private let folder: URL

    /// Runs the export (`options.outputDirectory` and `force` are replaced by a temporary folder).
    public static func make(_ source: PackSource, options: ExportOptions) async throws(ExportError) -> ExportDownload {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-export-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(path: folder.path, reason: "\(error.localizedDescription)")
        }
        var options = options
        options.outputDirectory = folder.appendingPathComponent("out")
        options.force = false
        options.dryRun = false
        do {
            let report = try await Exporter(options: options).run(source)
            let written = report.parts.map { URL(fileURLWithPath: $0.path) }
            var isFolder: ObjCBool = false
            if written.count == 1, FileManager.default.fileExists(atPath: written[0].path, isDirectory: &isFolder), !isFolder.boolValue {
                let type = written[0].pathExtension == "zip" ? "application/zip" : "application/octet-stream"
                return ExportDownload(fileName: written[0].lastPathComponent, contentType: type, file: written[0], report: report, folder: folder)
            }
            let zip = folder.appendingPathComponent("\(source.name).\(options.format.rawValue).zip")
            try Self.zipTree(options.outputDirectory, to: zip)
            return ExportDownload(fileName: zip.lastPathComponent, contentType: "application/zip", file: zip, report: report, folder: folder)
        } catch let error as ExportError {
            try? FileManager.default.removeItem(at: folder)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw .io(path: folder.path, reason: "\(error)")
        }
    }

    /// Removes the temporary folder.
    public func discard() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Every regular file under `root`, by relative path, into a reproducible zip.
    private static func zipTree(_ root: URL, to zip: URL) throws {
        let rootPath = root.standardizedFileURL.path
        var files: [(path: String, bytes: [UInt8])] = []
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(rootPath.count + 1))
            files.append((relative, Array(try Data(contentsOf: url))))
        }
        files.sort { $0.path < $1.path }
        try Data(ZipArchiveBuilder.archive(files)).write(to: zip)
    }
}
