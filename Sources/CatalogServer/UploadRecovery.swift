import Catalog
import Foundation

/// What a crash or a kill left in the uploads folder, put right when the server starts: parts of an
/// upload that never arrived whole (`.incoming-*`) are removed; whole uploads the catalog does not
/// hold (the server stopped before their import) are imported.
struct UploadRecovery: Sendable {
    /// What was found: the photos to import and the partial files removed, by path.
    struct Found: Sendable, Equatable {
        var toImport: [String] = []
        var removed: [String] = []
    }

    let directory: URL

    func scan(_ repository: any CatalogStore) async -> Found {
        var found = Found()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return found }
        for name in names.sorted() {
            let path = directory.appendingPathComponent(name).path
            if name.hasPrefix(".incoming-") {
                if (try? FileManager.default.removeItem(atPath: path)) != nil { found.removed.append(path) }
                continue
            }
            // Uploads are named by their SHA-256; anything else was not put there by the server.
            let digest = String(name.prefix { $0 != "." })
            guard digest.count == 64, digest.allSatisfy(\.isHexDigit) else { continue }
            let known: ExistingEntry? = (try? await repository.existingEntry(sha256: digest)) ?? nil
            if known != nil { continue }
            found.toImport.append(path)
        }
        return found
    }
}

/// What `catalog serve` found in its uploads folder at start, for its log.
public struct RecoveredUploads: Sendable, Equatable {
    /// Whole uploads the catalog did not hold: an import job for them has started.
    public var importing: [String] = []
    /// Parts of uploads that never arrived whole: removed.
    public var removed: [String] = []
    /// Why the uploads to import could not be (they stay for the next start), if so.
    public var problem: String?
}

extension CatalogServer {
    /// Removes what an earlier run's cut-off uploads left, and starts the import of whole uploads the
    /// catalog does not hold yet.
    public func recoverUploads() async -> RecoveredUploads {
        let found = await UploadRecovery(directory: configuration.uploadsDirectory).scan(api.repository)
        var report = RecoveredUploads(removed: found.removed)
        guard !found.toImport.isEmpty else { return report }
        do throws(APIError) {
            let settings = try await api.workingSettings()
            let predictor = try api.loadPredictor(settings.model)
            _ = try await api.startImport(found.toImport, settings: settings, predictor: predictor)
            report.importing = found.toImport
        } catch {
            report.problem = "\(found.toImport.count) photos left in \(configuration.uploadsDirectory.path) by an earlier run were not imported: \(error.message)"
        }
        return report
    }
}
