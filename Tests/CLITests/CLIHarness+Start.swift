import Foundation
import SampleImages
import TestProcessSupport

extension CLI {
    /// Starts `catalog ARGUMENTS` in `folder` without waiting (to signal or kill it mid-run), with the
    /// environment of ``run(_:in:environment:executable:stdin:)``; stdout goes to `stdout`, stderr to `stderr`.
    static func start(
        _ arguments: [String], in folder: TemporaryFolder, stdout: URL, stderr: URL, environment extra: [String: String] = [:]
    ) throws -> WatchedProcess {
        let process = WatchedProcess()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.environment = environment(in: folder, adding: extra)
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }
}

extension TemporaryFolder {
    /// `count` different JPEGs of one demo picture (a numbered COM segment in each, so every hash
    /// differs) in `folder`; returns the folder's path.
    @discardableResult
    func writeNumberedCopies(_ count: Int, width: Int, height: Int, in folder: String = "many") throws -> String {
        guard let photo = try SamplePhotos.demoStills(width: width, height: height).first(where: { $0.name.hasSuffix(".jpg") }) else {
            throw CocoaError(.fileNoSuchFile)
        }
        for number in 0..<count {
            let text = Array("copy \(number)".utf8)
            let segment: [UInt8] = [0xFF, 0xFE, UInt8((text.count + 2) >> 8), UInt8((text.count + 2) & 0xFF)] + text
            try write(Array(photo.bytes.prefix(2)) + segment + Array(photo.bytes.dropFirst(2)), to: "\(folder)/copy-\(number).jpg")
        }
        return path(folder)
    }

    /// The NDJSON lines written so far to `url`, parsed.
    func jsonLines(at url: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }
}
