/// What `catalog stats` reports. JSON keys are the property names; dictionary keys are strings
/// (`"stickersByPipelineVersion": {"1": 42}`).
public struct CatalogStats: Sendable, Equatable, Encodable {
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

    private enum CodingKeys: String, CodingKey {
        case total, ok, failed, failuresByCode, stickersByPipelineVersion, stickerBytes, paletteColors, packs
        case fileSize, migrations, work
    }

    /// Encodes the pipeline versions as string keys explicitly, not relying on `Int` dictionary-key support.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(total, forKey: .total)
        try container.encode(ok, forKey: .ok)
        try container.encode(failed, forKey: .failed)
        try container.encode(failuresByCode, forKey: .failuresByCode)
        let byVersion = Dictionary(uniqueKeysWithValues: stickersByPipelineVersion.map { (String($0.key), $0.value) })
        try container.encode(byVersion, forKey: .stickersByPipelineVersion)
        try container.encode(stickerBytes, forKey: .stickerBytes)
        try container.encode(paletteColors, forKey: .paletteColors)
        try container.encode(packs, forKey: .packs)
        try container.encode(fileSize, forKey: .fileSize)
        try container.encode(migrations, forKey: .migrations)
        try container.encodeIfPresent(work, forKey: .work)
    }
}
