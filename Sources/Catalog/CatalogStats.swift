/// What `catalog stats` reports. JSON keys are the property names; dictionary keys are strings
/// (`"stickersByPipelineVersion": {"1": 42}`).
public struct CatalogStats: Sendable, Equatable, JSONObject {
    /// Entries, all statuses.
    public var total: Int
    /// Entries with a sticker.
    public var ok: Int
    /// Entries whose processing failed.
    public var failed: Int
    /// Failed entries by failure code.
    public var failuresByCode: [String: Int]
    /// Stickers by the pipeline version that made them.
    public var stickersByPipelineVersion: [Int: Int]
    /// Total size of the sticker PNGs, in bytes.
    public var stickerBytes: Int64
    /// Palette colour rows, all stickers.
    public var paletteColors: Int
    /// Packs.
    public var packs: Int
    /// Size of the catalog on disk: the main file plus its write-ahead log, in bytes.
    public var fileSize: Int64
    /// Identifiers of the schema migrations applied, in order.
    public var migrations: [String]
    /// The shared work queue (`catalog work`); nil when not read.
    public var work: WorkStatus?

    /// The pipeline versions are written as string keys explicitly, not relying on `Int` dictionary-key support.
    public var jsonFields: [JSONField] {
        let byVersion = Dictionary(uniqueKeysWithValues: stickersByPipelineVersion.map { (String($0.key), $0.value) })
        return [("total", total), ("ok", ok), ("failed", failed), ("failuresByCode", failuresByCode),
                ("stickersByPipelineVersion", byVersion), ("stickerBytes", stickerBytes), ("paletteColors", paletteColors),
                ("packs", packs), ("fileSize", fileSize), ("migrations", migrations)] + fieldIfPresent("work", work)
    }
}
