import Foundation
import Processing

/// The entries of a catalog: recording imports, the identity reads an import needs, browsing, colour
/// search and counts. Each recording call is one transaction, so an entry is complete or absent.
public protocol EntryStore: CatalogHandle {
    // MARK: Recording imports (one transaction per call)

    /// Records a processed photo (entry, EXIF, sticker, palette), or updates the entry with these bytes.
    func recordProcessed(_ photo: ProcessedPhoto, sha256: String, source: SourceFile) async throws(CatalogError) -> ImportOutcome
    /// Records many processed photos in one transaction, each as ``recordProcessed(_:sha256:source:)`` would.
    func recordProcessed(batch entries: [ProcessedEntry]) async throws(CatalogError) -> [ImportOutcome]
    /// Records a photo that could not be processed (code and message), keeping what was learnt of it.
    func recordFailure(
        sha256: String?, source: SourceFile, format: ImageFormat?, facts: PhotoFacts?, code: String, message: String
    ) async throws(CatalogError) -> ImportOutcome
    /// Notes that `source` holds the same bytes as entry `id`.
    func noteDuplicate(id: Int64, source: SourceFile) async throws(CatalogError) -> ImportOutcome
    /// Links a Live Photo's still entry and clip entry (replacing any link either had), in one transaction.
    func linkLivePhoto(still: Int64, clip: Int64) async throws(CatalogError)

    // MARK: Identity reads for import

    /// The entry made from these bytes, if any.
    func existingEntry(sha256: String) async throws(CatalogError) -> ExistingEntry?
    /// The entry (with a hash) recorded at `path` whose bytes are not `sha256`; nil when none.
    func entryClaiming(path: String, otherThan sha256: String) async throws(CatalogError) -> PathClaim?
    /// The failure recorded for entry `id`, if it is a failed entry.
    func failure(id: Int64) async throws(CatalogError) -> (code: String, message: String)?

    // MARK: Browsing

    /// The entries that `filter` selects, in id order.
    func entries(_ filter: EntryFilter) async throws(CatalogError) -> [EntrySummary]
    /// One entry with everything known about it; nil when there is none.
    func entry(id: Int64) async throws(CatalogError) -> EntryDetail?
    /// Entry `id`'s sticker PNG; nil when it has none.
    func stickerPNG(id: Int64) async throws(CatalogError) -> [UInt8]?
    /// Entry `id`'s moving sticker (an animated WebP, its frame count and running time); nil for a still.
    func animation(id: Int64) async throws(CatalogError) -> AnimatedSticker?
    /// One page of entries, newest (highest id) first, by LIMIT/OFFSET, with the total (see ``EntryPageQuery``
    /// for the filter and the bounds, which every back end applies the same way).
    func entryPage(_ query: EntryPageQuery, settings: StickerSettings) async throws(CatalogError) -> EntryPage
    /// A short string that changes whenever entry `id`'s sticker changes (for HTTP caching); nil when none.
    func stickerVersion(id: Int64) async throws(CatalogError) -> String?
    /// The path entry `id` was last read from; nil when there is no such entry.
    func sourcePath(id: Int64) async throws(CatalogError) -> String?
    /// Counts, sizes and the schema migrations applied.
    func stats() async throws(CatalogError) -> CatalogStats

    // MARK: Colour search

    /// Entries whose palettes are nearest `query`, best first, through the back end's spatial index.
    func search(_ query: ColorQuery) async throws(CatalogError) -> [ColorSearchResult]
    /// The same results as ``search(_:)`` by scanning every palette: the reference the index is tested against.
    func searchByFullScan(_ query: ColorQuery) async throws(CatalogError) -> [ColorSearchResult]
}

extension EntryStore {
    /// ``recordFailure(sha256:source:format:facts:code:message:)`` with no facts.
    public func recordFailure(
        sha256: String?, source: SourceFile, format: ImageFormat?, code: String, message: String
    ) async throws(CatalogError) -> ImportOutcome {
        try await recordFailure(sha256: sha256, source: source, format: format, facts: nil, code: code, message: message)
    }
}
