/// Packs: named, ordered lists of stickers, each with its emoji. A back end gives the reads and the few
/// writes below, each one transaction; the commands (`createPack`, `addToPack`, …) and their rules
/// (validation, order, duplicates, limits) are written once above them, in `Packs/PackStore+Commands.swift`
/// and ``PackContents``.
public protocol PackStore: CatalogHandle {
    // MARK: Writes the commands stand on

    /// Inserts a pack with no items, in one transaction, unless one has this name (`.alreadyExists`).
    func insertPack(name: String, title: String, author: String, createdAt: String) async throws(PackError) -> PackSummary
    /// In one transaction: finds pack `name` (creates it, titled by its name, when `creatingIfMissing`;
    /// else `.notFound`), reads its items in order and, for each of `lookingUp` that is an entry, whether it
    /// has a sticker; runs `edit` on them; when `edit` succeeds, stores the items it leaves, at positions in
    /// their order. A failure writes no item.
    func editPack<T: Sendable>(
        _ name: String, creatingIfMissing: Bool, lookingUp ids: [Int64],
        _ edit: @Sendable (inout PackContents) -> Result<T, PackError>
    ) async throws(PackError) -> T
    /// Changes pack `name`'s name, title or author (nil leaves one as it is), refusing a name another pack
    /// has (`.alreadyExists`); the pack as it is then.
    func updatePack(_ name: String, newName: String?, title: String?, author: String?) async throws(PackError) -> PackSummary
    /// Deletes a pack (not its entries).
    func deletePack(_ name: String) async throws(PackError)

    // MARK: Reads

    /// Every pack, by name.
    func packs() async throws(PackError) -> [PackSummary]
    /// One pack and its items in order.
    func pack(named name: String) async throws(PackError) -> PackDetail
    /// A pack's entries in pack order.
    func entries(inPack name: String) async throws(PackError) -> [EntrySummary]
    /// A pack with its stickers' PNGs, read in one consistent snapshot, for export.
    func packSource(named name: String) async throws(PackError) -> PackSource
}
