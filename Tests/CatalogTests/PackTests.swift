import Foundation
import Testing

@testable import Catalog

@Suite("Packs: order, emoji, names, refusals", .timeLimit(.minutes(15)))
struct PackTests {
    @Test("a change of name, title and author, or of emoji and place, is done whole or not at all; a partial order moves the listed stickers to the front", arguments: StoreKind.allCases)
    func wholeChanges(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            let ids = try await addStickers(repository, count: 3, width: 32, height: 32)
            _ = try await repository.createPack(name: "beach", title: "Beach days", author: "Ana")
            _ = try await repository.addToPack("beach", ids: ids)
            let before = try await repository.pack(named: "beach")
            await #expect(throws: PackError.invalidValue(field: "title", reason: "it is empty")) {
                try await repository.changePack("beach", newName: "sea", title: "", author: nil)
            }
            await #expect(throws: PackError.self) { try await repository.changePack("beach", newName: "sea", title: "Sea", author: "a\u{0}") }
            await #expect(throws: PackError.invalidPosition(7, count: 3)) {
                try await repository.changePackItem("beach", id: ids[2], emoji: "🌊", position: 7)
            }
            #expect(try await repository.pack(named: "beach") == before)
            await #expect(throws: PackError.notFound(name: "sea")) { try await repository.pack(named: "sea") }

            let changed = try await repository.changePack("beach", newName: "sea", title: "Sea", author: "Bo")
            #expect(changed.name == "sea" && changed.title == "Sea" && changed.author == "Bo")
            try await repository.changePackItem("sea", id: ids[2], emoji: "🌊", position: 1)
            var pack = try await repository.pack(named: "sea")
            #expect(pack.items.map(\.id) == [ids[2], ids[0], ids[1]] && pack.items[0].emoji == ["🌊"])
            try await repository.reorderPack("sea", ids: [ids[1]])
            pack = try await repository.pack(named: "sea")
            #expect(pack.items.map(\.id) == [ids[1], ids[2], ids[0]])
            await #expect(throws: PackError.notInPack(name: "sea", ids: [424242])) { try await repository.reorderPack("sea", ids: [424242]) }
        }
    }

    @Test("a pack keeps its order and emoji through add, move and remove", arguments: StoreKind.allCases)
    func orderAndEmoji(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            let ids = try await addStickers(repository, count: 4, width: 32, height: 32)
            _ = try await repository.createPack(name: "beach", title: "Beach days", author: "Ana")
            let added = try await repository.addToPack("beach", ids: [ids[2], ids[0], ids[2]], emoji: nil)
            #expect(added.added == [ids[2], ids[0]])
            _ = try await repository.addToPack("beach", ids: [ids[1], ids[3]], emoji: "🌊 🐚")
            var pack = try await repository.pack(named: "beach")
            #expect(pack.title == "Beach days" && pack.author == "Ana")
            #expect(pack.items.map(\.id) == [ids[2], ids[0], ids[1], ids[3]])
            #expect(pack.items.map(\.position) == [1, 2, 3, 4])
            #expect(pack.items[0].emoji == ["🙂"])
            #expect(pack.items[2].emoji == ["🌊", "🐚"])

            let again = try await repository.addToPack("beach", ids: [ids[0]], emoji: "🏖")
            #expect(again.added.isEmpty && again.alreadyPresent == [ids[0]])
            #expect(try await repository.pack(named: "beach").items[1].emoji == ["🏖"])

            try await repository.movePackItem("beach", id: ids[3], to: 1)
            #expect(try await repository.pack(named: "beach").items.map(\.id) == [ids[3], ids[2], ids[0], ids[1]])
            _ = try await repository.removeFromPack("beach", ids: [ids[2]])
            pack = try await repository.pack(named: "beach")
            #expect(pack.items.map(\.id) == [ids[3], ids[0], ids[1]])
            #expect(pack.items.map(\.position) == [1, 2, 3])
            #expect(try await repository.entries(inPack: "beach").map(\.id) == [ids[3], ids[0], ids[1]])
            #expect(try await repository.packs().map(\.count) == [3])

            try await repository.deletePack("beach")
            #expect(try await repository.packs().isEmpty)
            #expect(try await repository.entries(.all).count == 4)  // stickers stay
        }
    }

    @Test("bad names, unknown packs and ids, failed entries and bad positions are refused and change nothing", arguments: StoreKind.allCases)
    func refusals(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            let ids = try await addStickers(repository, count: 2, width: 32, height: 32)
            let failed = try await repository.recordFailure(
                sha256: sha(99), source: source("/photos/bad.jpg"), format: .jpeg, code: "corrupt-image", message: "bad"
            )
            guard case .failed(let failedId) = failed else { Issue.record("expected a failed entry"); return }
            _ = try await repository.createPack(name: "p")
            _ = try await repository.addToPack("p", ids: [ids[0]])

            for name in ["", "../x", "/abs", "a/b", "a\u{0}b", String(repeating: "x", count: 65), "be\u{2215}ach", "．．", ".hidden", "-x", "naïve", "a b"] {
                await #expect(throws: PackError.self) { _ = try await repository.createPack(name: name) }
                #expect(!PackName.isValid(name), "\(name)")
            }
            #expect(PackName.isValid("beach_2026.v1-final"))
            await #expect(throws: PackError.alreadyExists(name: "p")) { _ = try await repository.createPack(name: "p") }
            await #expect(throws: PackError.notFound(name: "nope")) { _ = try await repository.addToPack("nope", ids: ids) }
            await #expect(throws: PackError.unknownEntries(ids: [777])) { _ = try await repository.addToPack("p", ids: [ids[1], 777]) }
            await #expect(throws: PackError.notStickers(ids: [failedId])) { _ = try await repository.addToPack("p", ids: [ids[1], failedId]) }
            await #expect(throws: PackError.self) { _ = try await repository.addToPack("p", ids: [ids[1]], emoji: "abc") }
            await #expect(throws: PackError.notInPack(name: "p", ids: [ids[1]])) { try await repository.removeFromPack("p", ids: [ids[1]]) }
            await #expect(throws: PackError.invalidPosition(5, count: 1)) { try await repository.movePackItem("p", id: ids[0], to: 5) }
            await #expect(throws: PackError.self) { _ = try await repository.createPack(name: "q", title: "line\nbreak") }
            #expect(try await repository.pack(named: "p").items.map(\.id) == [ids[0]])

            // import --pack: failed entries are skipped, not refused; the pack is created.
            let skipped = try await repository.addToPack("imported", ids: [ids[1], failedId], createIfMissing: true, skipNonStickers: true)
            #expect(skipped.added == [ids[1]] && skipped.skipped == [failedId])
            // A sticker that went away later (a failed reprocess) is named by exports, not skipped.
            try await executeRaw("DELETE FROM sticker WHERE photo_id = ?", [ids[1]], on: repository)
            await #expect(throws: PackError.missingStickers(name: "imported", ids: [ids[1]])) { _ = try await repository.packSource(named: "imported") }
            #expect(PackError.unknownEntries(ids: [777]).errorDescription!.contains("777"))
        }
    }

    @Test("emoji: one grapheme each, 1-20, real emoji only")
    func emoji() throws {
        #expect(try StickerEmoji.parse("🙂") == ["🙂"])
        #expect(try StickerEmoji.parse("👍🏽 🇫🇷 👨‍👩‍👧 🏖️ 1️⃣") == ["👍🏽", "🇫🇷", "👨‍👩‍👧", "🏖️", "1️⃣"])
        #expect(throws: PackError.self) { try StickerEmoji.parse("") }
        #expect(throws: PackError.self) { try StickerEmoji.parse("a") }
        #expect(throws: PackError.self) { try StickerEmoji.parse("1") }
        #expect(throws: PackError.self) { try StickerEmoji.parse(String(repeating: "🙂", count: 21)) }
        #expect(StickerEmoji.split("") == ["🙂"])
    }
}
