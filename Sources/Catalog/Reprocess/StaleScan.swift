import Foundation
import Processing

#if canImport(Glibc)
import Glibc
#endif

/// One entry as a stale scan reads it, on every back end: its `photo` row joined with its `sticker` row
/// (if any), read by a ``StaleScan``.
struct StaleScanRow {
    /// Entries a back end reads per page, so a large catalog is never read in one transaction.
    static let pageSize = 1000

    var id: Int64
    var sha256: String?
    var path: String
    var fileSize: Int64?
    var fileMtime: Double?
    var failureCode: String?
    /// nil: recorded before decoder versions were (version 1).
    var decoderVersion: Int?
    var guidanceJSON: String?
    var clipJSON: String?
    /// nil when the entry has no sticker.
    var pipelineVersion: Int?
    var settingsJSON: String?
}

/// Which entries a reprocess looks at, written once for every back end: a back end reads
/// ``StaleScanRow``s a page at a time, in id order, and keeps ``candidates(in:)`` of each page.
struct StaleScan {
    /// The catalog's settings the stickers are measured against.
    var settings: StickerSettings
    /// This binary's pipeline and decoder versions (tests pass other ones).
    var pipelineVersion: Int
    var decoderVersion: Int
    /// Every entry, stale or not (`reprocess --all`).
    var all: Bool
    /// The catalog as errors name it.
    var catalog: String

    /// The candidates among `page`, in its order.
    func candidates(in page: [StaleScanRow]) throws(CatalogError) -> [ReprocessCandidate] {
        var candidates: [ReprocessCandidate] = []
        for row in page {
            if let candidate = try candidate(row) { candidates.append(candidate) }
        }
        return candidates
    }

    /// The candidate `row` is, or nil when it has nothing to do: an entry with a recorded reason to run
    /// (or any entry when `all`), or whose file's size or modification time changed (a possible new
    /// version of the source), checked with stat(2). Stored settings or guidance that cannot be read are
    /// an error naming the catalog.
    func candidate(_ row: StaleScanRow) throws(CatalogError) -> ReprocessCandidate? {
        var sticker: (pipelineVersion: Int, settings: StickerSettings)?
        if let version = row.pipelineVersion, let json = row.settingsJSON {
            do {
                sticker = (version, try CatalogJSON.decode(StickerSettings.self, from: json))
            } catch {
                throw .database(path: catalog, message: "entry \(row.id) has unreadable sticker settings: \(error)")
            }
        }
        let reasons = StaleReason.recorded(
            sticker: sticker, failureCode: row.failureCode, current: settings, pipelineVersion: pipelineVersion,
            recordedDecoderVersion: row.decoderVersion ?? 1, decoderVersion: decoderVersion)
        let source = Self.sourceCheck(row)
        guard all || !reasons.isEmpty || source == .differs else { return nil }
        let guidance: CutoutGuidance
        do {
            guidance = try CutoutGuidance(storedJSON: row.guidanceJSON)
        } catch {
            throw .database(path: catalog, message: "entry \(row.id) has unreadable cut-out guidance: \(error)")
        }
        let clip: ClipWindow?
        do {
            clip = try ClipWindow.stored(row.clipJSON)
        } catch {
            throw .database(path: catalog, message: "entry \(row.id) has an unreadable part of a clip: \(error)")
        }
        return ReprocessCandidate(
            id: row.id, sha256: row.sha256, path: row.path, hasSticker: sticker != nil, reasons: reasons, source: source, guidance: guidance,
            clip: clip)
    }

    /// Whether the entry's file is gone, or differs in size or modification time from what was recorded.
    private static func sourceCheck(_ row: StaleScanRow) -> ReprocessCandidate.Source {
        var info = stat()
        if EscapedPath.withSystemPath(row.path, { stat($0, &info) }) != 0 {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .differs
        }
        let mtime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        // An unreadable entry (no hash) recorded no size: only its `failed` reason counts.
        let same = row.sha256 == nil || (Int64(info.st_size) == row.fileSize && mtime == row.fileMtime)
        return same ? .unchanged : .differs
    }
}
