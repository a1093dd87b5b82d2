import Foundation
import Processing
import Testing

@testable import Catalog

/// The rules written once above the back ends, checked without a database: what every back end's I/O
/// carries out (the suites in this folder check the same behaviour through both back ends).
@Suite("Store rules: pack edits, an entry's rewrite, a page's bounds", .timeLimit(.minutes(15)))
struct StoreRulesTests {
    private func members(_ ids: [Int64]) -> [PackMember] {
        ids.map { PackMember(id: $0, emoji: "🙂") }
    }

    @Test("adding keeps the order, counts a repeated id once, and refuses unknown ids or failed entries whole")
    func packAdd() throws {
        var contents = PackContents(members: members([5]), stickers: [5: true, 7: true, 8: false])
        let result = contents.add([7, 5], emoji: "🌊", skipNonStickers: false)
        #expect(try result.get() == PackAddResult(added: [7], alreadyPresent: [5], skipped: []))
        #expect(contents.members == [PackMember(id: 5, emoji: "🌊"), PackMember(id: 7, emoji: "🌊")])

        var refused = PackContents(members: [], stickers: [7: true, 8: false])
        #expect(throws: PackError.unknownEntries(ids: [9])) { try refused.add([7, 9], emoji: nil, skipNonStickers: false).get() }
        #expect(throws: PackError.notStickers(ids: [8])) { try refused.add([7, 8], emoji: nil, skipNonStickers: false).get() }
        #expect(refused.members.isEmpty)
        let skipping = refused.add([8, 7], emoji: nil, skipNonStickers: true)
        #expect(try skipping.get() == PackAddResult(added: [7], alreadyPresent: [], skipped: [8]))
        #expect(refused.members == [PackMember(id: 7, emoji: StickerEmoji.defaultEmoji)])
    }

    @Test("remove, move, reorder and emoji refuse ids not in the pack and leave it as it was")
    func packEdits() throws {
        var contents = PackContents(members: members([1, 2, 3]), stickers: [:])
        #expect(throws: PackError.notInPack(name: "p", ids: [9])) { try contents.remove([2, 9], pack: "p").get() }
        #expect(throws: PackError.invalidPosition(4, count: 3)) { try contents.move(1, to: 4, pack: "p").get() }
        #expect(throws: PackError.notInPack(name: "p", ids: [9])) { try contents.reorder([2, 9], pack: "p").get() }
        #expect(throws: PackError.notInPack(name: "p", ids: [9])) { try contents.setEmoji("🐚", of: 9, pack: "p").get() }
        #expect(contents.members.map(\.id) == [1, 2, 3])

        #expect(throws: Never.self) { try contents.move(3, to: 1, pack: "p").get() }
        #expect(contents.members.map(\.id) == [3, 1, 2])
        #expect(try contents.remove([1], pack: "p").get() == 1)
        #expect(throws: Never.self) { try contents.reorder([2, 3], pack: "p").get() }
        #expect(contents.members.map(\.id) == [2, 3])
    }

    @Test("a partial order puts the stickers it lists first, in its order, and the others after them as they were")
    func partialOrder() throws {
        var contents = PackContents(members: members([1, 2, 3, 4, 5]), stickers: [:])
        #expect(throws: Never.self) { try contents.reorder([4, 2], pack: "p").get() }
        #expect(contents.members.map(\.id) == [4, 2, 1, 3, 5])
        // A repeated id counts once, where it is first listed; an empty order changes nothing.
        #expect(throws: Never.self) { try contents.reorder([5, 4, 5], pack: "p").get() }
        #expect(contents.members.map(\.id) == [5, 4, 2, 1, 3])
        #expect(throws: Never.self) { try contents.reorder([], pack: "p").get() }
        #expect(contents.members.map(\.id) == [5, 4, 2, 1, 3])
    }

    private func record(id: Int64, sha256: String?, guidance: String? = nil) -> PhotoRecord {
        PhotoRecord(
            id: id, sha256: sha256, path: "/p/\(id).jpg", fileSize: 10, fileMtime: 1, format: "jpeg", width: 4, height: 3,
            status: EntryStatus.ok.rawValue, importedAt: "then", updatedAt: "then", guidanceJson: guidance)
    }

    @Test("a rewrite stops when the entry changed meanwhile, and never merges an entry into another")
    func entryRewrite() throws {
        let source = SourceFile(path: "/p/1.jpg", size: 20, modificationTime: 2)
        let failing = ReprocessStep(
            entryID: 1, expectedSHA256: "a",
            change: .fail(sha256: "b", PhotoFailure(source: source, format: .jpeg, facts: nil, code: "decode", message: "broken")))

        guard case .nothing(.changedMeanwhile) = try failing.plan(found: [record(id: 1, sha256: "z")], now: "now") else {
            Issue.record("a changed hash must stop the rewrite")
            return
        }
        guard case .nothing(.duplicate(of: 2, removed: false)) = try failing.plan(
            found: [record(id: 1, sha256: "a"), record(id: 2, sha256: "b")], now: "now")
        else {
            Issue.record("bytes another entry holds must leave this entry as it was")
            return
        }
        let placeholder = ReprocessStep(entryID: 1, expectedSHA256: nil, change: .resolveDuplicate(sha256: "b"))
        guard case .deleteEntry(.duplicate(of: 2, removed: true)) = try placeholder.plan(
            found: [record(id: 1, sha256: nil), record(id: 2, sha256: "b")], now: "now")
        else {
            Issue.record("an unreadable placeholder whose bytes are catalogued goes")
            return
        }
        guard case .replaceContent(let rewritten, .none, .none, .failed) = try failing.plan(found: [record(id: 1, sha256: "a")], now: "now")
        else {
            Issue.record("a failure replaces the content")
            return
        }
        #expect(rewritten.sha256 == "b" && rewritten.fileSize == 20 && rewritten.status == EntryStatus.failed.rawValue)
        #expect(rewritten.failureCode == "decode" && rewritten.width == nil && rewritten.updatedAt == "now")
        #expect(failing.queueMessage == "broken [decode]")
    }

    @Test("a page's limit is kept within 1 and the largest page, its offset at 0 or more")
    func pageBounds() {
        #expect(EntryPageQuery(limit: 0, offset: -5).boundedLimit == 1)
        #expect(EntryPageQuery(limit: 0, offset: -5).boundedOffset == 0)
        #expect(EntryPageQuery(limit: EntryPageQuery.maxLimit + 1).boundedLimit == EntryPageQuery.maxLimit)
    }

    @Test("stored settings apply over the defaults; unknown keys are ignored and a bad value names the catalog")
    func storedSettings() throws {
        let settings = try CatalogSetting.settings(from: [(key: "future.key", value: "x"), (key: "sticker.size", value: "256")], catalog: "c")
        #expect(settings.size == 256 && settings.paletteColors == StickerSettings.default.paletteColors)
        #expect(throws: CatalogError.self) { try CatalogSetting.settings(from: [(key: "sticker.size", value: "huge")], catalog: "c") }
    }

    @Test("a pack source numbers its items in order, drops the GPS, and names every entry whose sticker went away")
    func packSourceFromRows() throws {
        var small = StickerSettings.default
        small.size = 256
        let exif = ExifRecord(
            photoId: 4, make: "Acme", model: "One", lensModel: nil, takenAt: "2024-05-01T12:00:00", takenAtUtc: nil,
            exposureTime: nil, fNumber: 2.8, iso: 100, focalLength: nil, orientation: 1, gpsLatitude: 51.5, gpsLongitude: -0.1,
            gpsAltitude: nil, tagsJson: "{}")
        func row(_ id: Int64, sticker: Bool = true) throws -> PackSourceRow {
            PackSourceRow(
                id: id, emoji: "🌊 🙂", png: sticker ? Data([1, 2]) : nil, width: sticker ? 40 : nil, height: sticker ? 30 : nil,
                settingsJSON: try CatalogJSON.string(small), palette: Palette(colors: []),
                source: SourceSummary(sha256: "s\(id)", format: "jpeg", width: 400, height: 300), exif: id == 4 ? exif : nil)
        }
        let pack = try PackSource.assembled(name: "p", title: "P", author: "", rows: [try row(4), try row(2)]).get()
        #expect(pack.items.map(\.id) == [4, 2] && pack.items.map(\.position) == [1, 2])
        #expect(pack.items[0].emoji == ["🌊", "🙂"] && pack.items[0].fullSize == 256 && pack.items[0].png == [1, 2])
        #expect(pack.items[0].source.exif == SourceSummary.ExifSummary(
            make: "Acme", model: "One", lensModel: nil, takenAt: "2024-05-01T12:00:00", exposureTime: nil, fNumber: 2.8, iso: 100,
            focalLength: nil))
        #expect(pack.items[1].source.exif == nil)

        let broken = try PackSource.assembled(name: "p", title: "P", author: "", rows: [try row(4), try row(5, sticker: false), try row(6, sticker: false)])
        #expect(throws: PackError.missingStickers(name: "p", ids: [5, 6])) { try broken.get() }
    }
}
