import Crypto

/// Counts and SHA-256 checksums of a catalog's content, computed in Swift from the records every back
/// end returns (``CopySource/storedEntries(after:limit:)``, ``CopySource/storedRest()``), so a catalog
/// and its copy on another back end report the same values. Part of `catalog verify`'s report.
public struct CatalogChecksums: Sendable, Equatable, Encodable {
    public var entries: Int
    public var stickers: Int
    public var paletteColors: Int
    public var packs: Int
    public var packItems: Int
    public var settings: Int
    /// Over every entry in id order: id, hash, status, failure code, path, sticker PNG bytes, palette
    /// (rank, hex, Oklab and share as 64-bit floats), the cut-out guidance of an entry that has one, and
    /// the moving sticker of an animated entry.
    public var entriesSHA256: String
    /// Over packs by name (title, author, items in order with their emoji) and settings by key.
    public var packsSHA256: String

    /// Reads the whole catalog, `batchSize` entries at a time, and computes its checksums.
    public static func compute(of store: any CopySource, batchSize: Int = 200) async throws(CatalogError) -> CatalogChecksums {
        var hasher = SHA256()
        var counts = (entries: 0, stickers: 0, colors: 0)
        var after: Int64?
        while true {
            let batch = try await store.storedEntries(after: after, limit: batchSize)
            guard let last = batch.last?.id else { break }
            for entry in batch {
                add(entry, to: &hasher)
                counts.entries += 1
                counts.stickers += entry.sticker == nil ? 0 : 1
                counts.colors += entry.palette.count
            }
            after = last
        }
        let rest = try await store.storedRest()
        var packHasher = SHA256()
        for pack in rest.packs.sorted(by: { $0.name < $1.name }) {
            addFields(["pack", pack.name, pack.title, pack.author], to: &packHasher)
            for item in pack.items.sorted(by: { $0.position < $1.position }) {
                addFields(["item", String(item.entryID), String(item.position), item.emoji], to: &packHasher)
            }
        }
        for (key, value) in rest.settings.sorted(by: { $0.key < $1.key }) {
            addFields(["setting", key, value], to: &packHasher)
        }
        return CatalogChecksums(
            entries: counts.entries, stickers: counts.stickers, paletteColors: counts.colors, packs: rest.packs.count,
            packItems: rest.packs.reduce(0) { $0 + $1.items.count }, settings: rest.settings.count,
            entriesSHA256: hex(hasher.finalize()), packsSHA256: hex(packHasher.finalize()))
    }

    private static func add(_ entry: StoredEntry, to hasher: inout SHA256) {
        addFields(
            ["entry", String(entry.id), entry.sha256 ?? "-", entry.status, entry.failureCode ?? "-", entry.path], to: &hasher)
        let png = entry.sticker?.png ?? []
        addFields(["png", String(png.count)], to: &hasher)
        hasher.update(data: png)
        for color in entry.palette {
            addFields(
                ["color", String(color.rank), color.hex] + [color.l, color.a, color.b, color.share].map { String($0.bitPattern, radix: 16) },
                to: &hasher)
        }
        // Only guided entries add a field: a catalog without guidance keeps the checksums it had before 0007.
        if let guidance = entry.guidanceJson { addFields(["guidance", guidance], to: &hasher) }
        if let clip = entry.clipJson { addFields(["clip", clip], to: &hasher) }
        // Likewise only animated entries add theirs (0010).
        if let animation = entry.sticker?.animation {
            addFields(["animation", String(animation.frameCount), String(animation.durationMilliseconds), String(animation.webp.count)], to: &hasher)
            hasher.update(data: animation.webp)
        }
    }

    /// Each field followed by a 0 byte, so that field boundaries count.
    private static func addFields(_ fields: [String], to hasher: inout SHA256) {
        for field in fields {
            hasher.update(data: Array(field.utf8) + [0])
        }
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
