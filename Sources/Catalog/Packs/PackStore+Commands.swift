/// The pack commands, written once over every back end: each validates its input, then runs one
/// transaction through the back end's ``PackStore`` writes, with the rules of ``PackContents``.
extension PackStore {
    /// Creates an empty pack. The title defaults to the name.
    public func createPack(name: String, title: String?, author: String) async throws(PackError) -> PackSummary {
        try PackName.validate(name)
        let title = title ?? name
        try PackText.validate(title, field: "title", allowEmpty: false)
        try PackText.validate(author, field: "author", allowEmpty: true)
        return try await insertPack(name: name, title: title, author: author, createdAt: Timestamp.now())
    }

    /// Appends entries to the pack, in the order given (repeated ids count once); see ``PackContents``'s
    /// `add` for ids already there, unknown ids and entries without a sticker. `createIfMissing` makes the
    /// pack first (`import --pack`), `skipNonStickers` leaves failed entries out.
    public func addToPack(
        _ name: String, ids: [Int64], emoji: String?, createIfMissing: Bool, skipNonStickers: Bool
    ) async throws(PackError) -> PackAddResult {
        try PackName.validate(name)
        let emojiText = try emoji.map { text throws(PackError) in try StickerEmoji.parse(text).joined() }
        var seen = Set<Int64>()
        let ids = ids.filter { seen.insert($0).inserted }
        return try await editPack(name, creatingIfMissing: createIfMissing, lookingUp: ids) { contents in
            contents.add(ids, emoji: emojiText, skipNonStickers: skipNonStickers)
        }
    }

    /// Removes entries from the pack; the others close up, keeping their order. Returns how many were
    /// removed. Ids not in the pack refuse the call.
    @discardableResult
    public func removeFromPack(_ name: String, ids: [Int64]) async throws(PackError) -> Int {
        try await editPack(name, creatingIfMissing: false, lookingUp: []) { contents in contents.remove(ids, pack: name) }
    }

    /// Moves entry `id` to 1-based `position`; the others shift to make room.
    public func movePackItem(_ name: String, id: Int64, to position: Int) async throws(PackError) {
        try await editPack(name, creatingIfMissing: false, lookingUp: []) { contents in contents.move(id, to: position, pack: name) }
    }

    /// Puts the pack's items of `ids` first, in that order, and the others after them as they were.
    public func reorderPack(_ name: String, ids: [Int64]) async throws(PackError) {
        try await editPack(name, creatingIfMissing: false, lookingUp: []) { contents in contents.reorder(ids, pack: name) }
    }

    /// Sets the emoji of entry `id` in the pack (one to three emoji, as `pack add --emoji` takes).
    public func setPackItemEmoji(_ name: String, id: Int64, emoji: String) async throws(PackError) {
        let emojiText = try StickerEmoji.parse(emoji).joined()
        try await editPack(name, creatingIfMissing: false, lookingUp: []) { contents in contents.setEmoji(emojiText, of: id, pack: name) }
    }

    /// Changes the emoji and/or the place of entry `id` in the pack (nil leaves one as it is), in one
    /// transaction: a bad position leaves the emoji as it was too.
    public func changePackItem(_ name: String, id: Int64, emoji: String?, position: Int?) async throws(PackError) {
        let emojiText = try emoji.map { text throws(PackError) in try StickerEmoji.parse(text).joined() }
        try await editPack(name, creatingIfMissing: false, lookingUp: []) { contents -> Result<Void, PackError> in
            if let emojiText, case .failure(let error) = contents.setEmoji(emojiText, of: id, pack: name) { return .failure(error) }
            if let position { return contents.move(id, to: position, pack: name) }
            return .success(())
        }
    }

    /// Changes the name, the title and/or the author (nil leaves one as it is), all or none: every value is
    /// checked first, then one transaction writes them.
    public func changePack(_ name: String, newName: String?, title: String?, author: String?) async throws(PackError) -> PackSummary {
        if let newName { try PackName.validate(newName) }
        if let title { try PackText.validate(title, field: "title", allowEmpty: false) }
        if let author { try PackText.validate(author, field: "author", allowEmpty: true) }
        return try await updatePack(name, newName: newName == name ? nil : newName, title: title, author: author)
    }

    /// Renames the pack; its items, title and author stay.
    public func renamePack(_ name: String, to newName: String) async throws(PackError) -> PackSummary {
        try await changePack(name, newName: newName, title: nil, author: nil)
    }

    /// Changes the title and/or the author (nil leaves one as it is).
    public func retitlePack(_ name: String, title: String?, author: String?) async throws(PackError) -> PackSummary {
        try await changePack(name, newName: nil, title: title, author: author)
    }

    /// A pack with no title (its name is shown) and no author.
    public func createPack(name: String, title: String? = nil) async throws(PackError) -> PackSummary {
        try await createPack(name: name, title: title, author: "")
    }

    /// Adds to an existing pack, with no emoji; every entry must be a sticker.
    public func addToPack(_ name: String, ids: [Int64]) async throws(PackError) -> PackAddResult {
        try await addToPack(name, ids: ids, emoji: nil, createIfMissing: false, skipNonStickers: false)
    }

    /// Adds to an existing pack with this emoji; every entry must be a sticker.
    public func addToPack(_ name: String, ids: [Int64], emoji: String?) async throws(PackError) -> PackAddResult {
        try await addToPack(name, ids: ids, emoji: emoji, createIfMissing: false, skipNonStickers: false)
    }

    /// Adds with no emoji, creating the pack when `createIfMissing`.
    public func addToPack(
        _ name: String, ids: [Int64], createIfMissing: Bool, skipNonStickers: Bool = false
    ) async throws(PackError) -> PackAddResult {
        try await addToPack(name, ids: ids, emoji: nil, createIfMissing: createIfMissing, skipNonStickers: skipNonStickers)
    }
}
