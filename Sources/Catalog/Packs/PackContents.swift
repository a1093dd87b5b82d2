/// One sticker of a pack as a back end stores it: the entry and its emoji (its place is its index).
public struct PackMember: Sendable, Equatable {
    /// The entry's id.
    public var id: Int64
    /// The emoji, joined (one to three graphemes).
    public var emoji: String
}

/// A pack's items in order, as an edit sees them inside its transaction (``PackStore/editPack(_:creatingIfMissing:lookingUp:_:)``),
/// with what the edit asked to know about entries. The pack rules are its methods: each checks everything
/// before it changes anything, so a refused command leaves the pack as it was.
public struct PackContents: Sendable {
    /// The items, in pack order.
    public var members: [PackMember]
    /// For each looked-up id that is an entry: true when it has a sticker (and is not failed).
    public let stickers: [Int64: Bool]

    /// Appends `ids` (distinct, in order); ids already in the pack stay where they are (their emoji changes
    /// when `emoji` is given). Unknown ids, and entries without a sticker, refuse the whole edit, unless
    /// `skipNonStickers`, which leaves failed entries out.
    mutating func add(_ ids: [Int64], emoji: String?, skipNonStickers: Bool) -> Result<PackAddResult, PackError> {
        let unknown = ids.filter { stickers[$0] == nil }
        if !unknown.isEmpty { return .failure(.unknownEntries(ids: unknown)) }
        let failed = ids.filter { stickers[$0] == false }
        if !failed.isEmpty && !skipNonStickers { return .failure(.notStickers(ids: failed)) }
        let present = Set(members.map(\.id))
        var result = PackAddResult(added: [], alreadyPresent: [], skipped: failed)
        for id in ids where stickers[id] == true {
            if present.contains(id) {
                result.alreadyPresent.append(id)
                if let emoji, let index = members.firstIndex(where: { $0.id == id }) { members[index].emoji = emoji }
            } else {
                result.added.append(id)
                members.append(PackMember(id: id, emoji: emoji ?? StickerEmoji.defaultEmoji))
            }
        }
        return .success(result)
    }

    /// Removes `ids`; the others close up, keeping their order. Ids not in pack `name` refuse the edit.
    mutating func remove(_ ids: [Int64], pack name: String) -> Result<Int, PackError> {
        let present = Set(members.map(\.id))
        let missing = ids.filter { !present.contains($0) }
        if !missing.isEmpty { return .failure(.notInPack(name: name, ids: missing)) }
        let removing = Set(ids)
        members.removeAll { removing.contains($0.id) }
        return .success(removing.count)
    }

    /// Moves entry `id` to 1-based `position`; the others shift to make room.
    mutating func move(_ id: Int64, to position: Int, pack name: String) -> Result<Void, PackError> {
        guard let from = members.firstIndex(where: { $0.id == id }) else { return .failure(.notInPack(name: name, ids: [id])) }
        guard (1...members.count).contains(position) else { return .failure(.invalidPosition(position, count: members.count)) }
        let member = members.remove(at: from)
        members.insert(member, at: position - 1)
        return .success(())
    }

    /// Puts the items of `ids` first, in that order (a repeated id counts once), and the others after them
    /// in the order they had: a partial order moves the stickers it names to the front. An id not in
    /// pack `name` refuses the edit.
    mutating func reorder(_ ids: [Int64], pack name: String) -> Result<Void, PackError> {
        let byId = Dictionary(members.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let strangers = ids.filter { byId[$0] == nil }
        if !strangers.isEmpty { return .failure(.notInPack(name: name, ids: strangers)) }
        var seen = Set<Int64>()
        let listed = ids.filter { seen.insert($0).inserted }
        members = listed.compactMap { byId[$0] } + members.filter { !seen.contains($0.id) }
        return .success(())
    }

    /// Sets the emoji of entry `id`.
    mutating func setEmoji(_ emoji: String, of id: Int64, pack name: String) -> Result<Void, PackError> {
        guard let index = members.firstIndex(where: { $0.id == id }) else { return .failure(.notInPack(name: name, ids: [id])) }
        members[index].emoji = emoji
        return .success(())
    }
}
