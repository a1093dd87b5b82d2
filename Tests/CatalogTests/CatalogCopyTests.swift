import Foundation
import Processing
import Testing

@testable import Catalog

/// ``CatalogCopier`` over the interface: every pair of back ends keeps ids, content, packs and settings,
/// refuses targets that are not new, and resumes after its last committed batch.
@Suite(.timeLimit(.minutes(15))) struct CatalogCopyTests {
    /// Three stickers, a failure, a pack and a setting.
    private func fill(_ store: any CatalogStore) async throws {
        for index in 1...3 {
            _ = try await store.recordProcessed(sampleProcessedPhoto(), sha256: sha(index), source: SourceFile(path: "/p/\(index).jpg", size: 10, modificationTime: 1))
        }
        _ = try await store.recordFailure(sha256: sha(9), source: SourceFile(path: "/p/bad.jpg", size: 3, modificationTime: 2), format: nil, code: "corrupt-image", message: "bad")
        _ = try await store.createPack(name: "beach", title: "Beach", author: "Ana")
        _ = try await store.addToPack("beach", ids: [3, 1], emoji: "🌊")
        try await store.store(.paletteColors, value: "4")
    }

    @Test(arguments: StoreKind.withCopyAndWork, StoreKind.withCopyAndWork)
    func aCopyKeepsEverything(from sourceKind: StoreKind, to targetKind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let source = try await openStore(sourceKind, in: directory, name: "source")
            try await fill(source)
            let target = try await openStore(targetKind, in: directory, name: "target")
            let summary = try await CatalogCopier(source: source, target: target, batchSize: 2).run { _ in }
            #expect(summary.copied == 4 && summary.complete)
            let original = try await CatalogChecksums.compute(of: source)
            let copy = try await CatalogChecksums.compute(of: target)
            #expect(original == copy)
            #expect(original.entries == 4 && original.stickers == 3 && original.packItems == 2 && original.settings == 1)
            #expect(try await source.storedEntries(after: nil, limit: 10) == target.storedEntries(after: nil, limit: 10))
            #expect(try await target.pack(named: "beach").items.map(\.id) == [3, 1])
            #expect(try await target.settings().paletteColors == 4)
            // The id sequence continues after the copied ids.
            let next = try await target.recordProcessed(sampleProcessedPhoto(), sha256: sha(20), source: SourceFile(path: "/p/20.jpg", size: 1, modificationTime: 1))
            #expect(next == .imported(id: 5))
        }
    }

    @Test(arguments: StoreKind.withCopyAndWork)
    func aTargetThatIsNotNewIsRefused(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let source = try await openStore(kind, in: directory, name: "source")
            try await fill(source)
            let target = try await openStore(kind, in: directory, name: "target")
            _ = try await target.createPack(name: "mine", title: nil, author: "")
            await #expect(throws: CatalogError.self) { try await CatalogCopier(source: source, target: target).run { _ in } }
            #expect(try await target.copyTargetState() == .notEmpty(entries: 0, packs: 1))

            let copy = try await openStore(kind, in: directory, name: "copy")
            _ = try await CatalogCopier(source: source, target: copy).run { _ in }
            await #expect(throws: CatalogError.self) { try await CatalogCopier(source: source, target: copy).run { _ in } }
            let more = try await source.storedEntries(after: nil, limit: 1)
            await #expect(throws: CatalogError.self) { try await copy.writeCopiedEntries(more, from: "elsewhere") }
        }
    }

    @Test(arguments: StoreKind.withCopyAndWork)
    func anIncompleteCopyResumesAfterItsLastBatch(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let source = try await openStore(kind, in: directory, name: "source")
            try await fill(source)
            let target = try await openStore(kind, in: directory, name: "target")
            // A run that stopped after its first batch (two entries).
            #expect(try await target.beginCopy(from: source.displayName) == .empty)
            try await target.writeCopiedEntries(try await source.storedEntries(after: nil, limit: 2), from: source.displayName)
            #expect(try await target.copyTargetState() == .incompleteCopy(source: source.displayName, lastID: 2))
            let other = try await openStore(kind, in: directory, name: "other")
            await #expect(throws: CatalogError.self) { try await CatalogCopier(source: other, target: target).run { _ in } }

            let resumed = try await CatalogCopier(source: source, target: target).run { _ in }
            #expect(resumed.copied == 2 && resumed.complete)
            #expect(try await CatalogChecksums.compute(of: source) == CatalogChecksums.compute(of: target))
            #expect(try await target.copyTargetState() == .completeCopy(source: source.displayName))
        }
    }
}
