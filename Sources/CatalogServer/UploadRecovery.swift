import Catalog
import Foundation

/// The promise behind an upload's 202: a small file in the uploads folder (`.import-<id>`) naming the
/// catalog and the photos to import, written before the answer and removed once the import has run to
/// its end. A server stopped or killed before that leaves it, and the next `catalog serve` on the same
/// catalog imports what it names. The uploads folder is shared by every catalog of the user, so a
/// photo no manifest names is never taken for this catalog's.
struct ImportManifest: Sendable {
    let url: URL

    /// Writes the manifest for `paths`, to be imported into `catalog`.
    static func write(_ paths: [String], catalog: String, in directory: URL) throws -> ImportManifest {
        let url = directory.appendingPathComponent(".import-\(UUID().uuidString)")
        try Data(([catalog] + paths).joined(separator: "\n").utf8).write(to: url, options: .atomic)
        return ImportManifest(url: url)
    }

    /// The catalog it is for, and the photos it names.
    func read() -> (catalog: String, paths: [String])? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n").map(String.init)
        guard let catalog = lines.first else { return nil }
        return (catalog, Array(lines.dropFirst()))
    }

    /// The import ran to its end: nothing is owed any more.
    func fulfilled() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// What a crash or a kill left in the uploads folder, put right when the server starts: parts of an
/// upload that never arrived whole (`.incoming-*`) are removed; uploads this catalog accepted but had
/// not imported (named by an `.import-*` manifest for it) are imported.
struct UploadRecovery: Sendable {
    struct Found: Sendable {
        var toImport: [String] = []
        var manifests: [ImportManifest] = []
        var removed: [String] = []
    }

    let directory: URL
    let catalog: String

    func scan() -> Found {
        var found = Found()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return found }
        for name in names.sorted() {
            let url = directory.appendingPathComponent(name)
            if name.hasPrefix(".incoming-") {
                if (try? FileManager.default.removeItem(at: url)) != nil { found.removed.append(url.path) }
            } else if name.hasPrefix(".import-"), let (owner, paths) = ImportManifest(url: url).read(), owner == catalog {
                found.manifests.append(ImportManifest(url: url))
                for path in paths where FileManager.default.fileExists(atPath: path) && !found.toImport.contains(path) {
                    found.toImport.append(path)
                }
            }
        }
        return found
    }
}

/// What `catalog serve` found in its uploads folder at start, for its log.
public struct RecoveredUploads: Sendable, Equatable {
    /// Uploads an earlier run accepted and did not import: an import job for them has started.
    public var importing: [String] = []
    /// Parts of uploads that never arrived whole: removed.
    public var removed: [String] = []
    /// Why the uploads to import could not be (they stay for the next start), if so.
    public var problem: String?
}

extension CatalogServer {
    /// Removes what an earlier run's cut-off uploads left, and starts the import of the uploads it
    /// accepted for this catalog and did not import.
    public func recoverUploads() async -> RecoveredUploads {
        let found = UploadRecovery(directory: configuration.uploadsDirectory, catalog: configuration.catalogIdentity).scan()
        var report = RecoveredUploads(removed: found.removed)
        guard !found.manifests.isEmpty else { return report }
        guard !found.toImport.isEmpty else {
            for manifest in found.manifests { manifest.fulfilled() }
            return report
        }
        do throws(APIError) {
            let settings = try await api.workingSettings()
            let predictor = try api.loadPredictor(settings)
            _ = try await api.startImport(found.toImport, settings: settings, predictor: predictor, fulfilling: found.manifests)
            report.importing = found.toImport
        } catch {
            report.problem = "\(Counted(found.toImport.count, "uploaded photo")) an earlier run accepted were not imported: \(error.message)"
        }
        return report
    }
}
