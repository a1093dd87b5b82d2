import Catalog
import Foundation
import Processing
import Synchronization

extension CatalogCommand.ListCommand {
    /// One entry of `list --stale`: what `reprocess` would do to it and why.
    struct StaleEntry: Encodable {
        let id: Int64
        let path: String
        let reasons: [StaleReason]
    }

    /// The entries `reprocess` would run, by id: a dry run of it (sources whose size or time changed are
    /// hashed, so a merely touched file is not listed). When `repository` is writable, a touched file's
    /// new size and time are recorded, as reprocess does, so the next call does not hash it again.
    static func staleEntries(in repository: any CatalogStore, settings: StickerSettings) async throws(CatalogError) -> [StaleEntry] {
        let reprocessor = Reprocessor(
            repository: repository,
            options: ReprocessOptions(
                jobs: ProcessInfo.processInfo.activeProcessorCount, dryRun: true, recordsTouched: true, settings: settings, predictor: nil
            )
        )
        let found = Found()
        _ = try await reprocessor.run(try await reprocessor.candidates()) { event in
            switch event {
            case .reprocessed(let id, let path, let reasons), .failed(let id, let path, let reasons, _),
                .missing(let id, let path, let reasons), .duplicate(let id, let path, let reasons, _):
                if !reasons.isEmpty { found.append(StaleEntry(id: id, path: path, reasons: reasons)) }
            case .refreshed: break
            }
        }
        return found.entries.sorted { $0.id < $1.id }
    }

    /// Collects the events (reported one at a time, from the reprocessor's task).
    private final class Found: Sendable {
        private let list = Mutex<[StaleEntry]>([])
        func append(_ entry: StaleEntry) { list.withLock { $0.append(entry) } }
        var entries: [StaleEntry] { list.withLock { $0 } }
    }
}
