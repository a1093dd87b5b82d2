import Foundation
import Processing
import Testing

@testable import Catalog

/// Near-duplicate signatures in the store, on every back end: the quarter-index lookup gives what a
/// scan of every signature gives, the signature goes with its sticker (reprocess, copy), decisions are
/// kept, and groups follow them.
@Suite(.timeLimit(.minutes(15))) struct SimilarityStoreTests {
    typealias SplitMix = PostgresSearchParityTests.SplitMix

    static func photo(_ signature: SimilaritySignature?, width: Int = 4000) -> ProcessedPhoto {
        let base = sampleProcessedPhoto()
        return ProcessedPhoto(
            format: base.format, width: width, height: 3000, exif: nil, sticker: base.sticker, palette: base.palette,
            pipelineVersion: base.pipelineVersion, settings: base.settings, signature: signature)
    }

    static func flipped(_ hash: PerceptualHash, _ bits: Int, _ random: inout SplitMix) -> PerceptualHash {
        var value = hash.bits
        for _ in 0..<bits { value ^= 1 << (random.next() % 64) }
        return PerceptualHash(bits: value)
    }

    /// Random signatures around a few centres (so that many pairs are near), all of one colour.
    static func signatures(_ count: Int) -> [SimilaritySignature] {
        var random = SplitMix(state: 30)
        let color = OklabColor(l: 0.7, a: 0.1, b: 0.1)
        let centres = (0..<6).map { _ in
            SimilaritySignature(photo: PerceptualHash(bits: random.next()), surroundings: PerceptualHash(bits: random.next()),
                                subject: PerceptualHash(bits: random.next()), sharpness: 5, color: color)
        }
        return (0..<count).map { index in
            var signature = centres[index % centres.count]
            signature.photo = flipped(signature.photo, Int(random.next() % 12), &random)
            signature.surroundings = flipped(signature.surroundings, Int(random.next() % 14), &random)
            signature.subject = flipped(signature.subject, Int(random.next() % 14), &random)
            signature.sharpness = Double(random.next() % 100) / 10
            return signature
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theIndexedLookupFindsWhatAScanFinds(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let store = try await openStore(kind, in: directory)
            let all = Self.signatures(120)
            for (index, signature) in all.enumerated() {
                _ = try await store.recordProcessed(Self.photo(signature), sha256: sha(index + 1), source: source("/p/\(index)"))
            }
            for within in [0, 3, 4, 6, 8, 12, 16] {
                for (index, query) in all.enumerated() where index % 7 == 0 {
                    let expected = all.enumerated().compactMap { other, signature -> NearDuplicate? in
                        let distance = query.distance(to: signature)
                        return other != index && distance <= within ? NearDuplicate(id: Int64(other + 1), distance: distance) : nil
                    }.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
                    let found = try await store.nearDuplicates(of: query, within: within, excluding: Int64(index + 1))
                    #expect(found == expected, "within \(within), entry \(index + 1)")
                }
            }
            #expect(try await store.signature(id: 5) == all[4])
            #expect(try await store.signedEntries(after: 100, limit: 5).map(\.id) == [101, 102, 103, 104, 105])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theSignatureGoesWithItsStickerAndACopy(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let store = try await openStore(kind, in: directory)
            let signature = Self.signatures(1)[0]
            _ = try await store.recordProcessed(Self.photo(signature), sha256: sha(1), source: source("/p/1"))
            _ = try await store.recordProcessed(Self.photo(nil), sha256: sha(2), source: source("/p/2"))
            #expect(try await store.signature(id: 2) == nil)
            // A reprocess replaces the sticker and its signature together.
            var newer = signature
            newer.subject = PerceptualHash(bits: ~signature.subject.bits)
            let outcome = try await store.rewrite(ReprocessStep(
                entryID: 1, expectedSHA256: sha(1), change: .replace(Self.photo(newer), sha256: sha(1), source: source("/p/1"))))
            #expect(outcome == .replaced)
            #expect(try await store.signature(id: 1) == newer)

            let copy = try await openStore(.sqlite, in: directory, name: "copy")
            _ = try await CatalogCopier(source: store, target: copy).run { _ in }
            #expect(try await copy.signature(id: 1) == newer)
            #expect(try await copy.signature(id: 2) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func groupsFollowTheRuleAndTheDecisions(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let store = try await openStore(kind, in: directory)
            let signature = Self.signatures(1)[0]
            var copy = signature
            copy.photo = PerceptualHash(bits: ~signature.photo.bits)
            copy.surroundings = PerceptualHash(bits: signature.surroundings.bits ^ 0b11111)
            copy.subject = PerceptualHash(bits: signature.subject.bits ^ 0b111)
            var other = signature
            other.photo = PerceptualHash(bits: signature.photo.bits ^ 0xFFFF_0000_FFFF_0000)
            other.subject = PerceptualHash(bits: ~signature.subject.bits)
            other.surroundings = PerceptualHash(bits: ~signature.surroundings.bits)
            _ = try await store.recordProcessed(Self.photo(copy, width: 2000), sha256: sha(1), source: source("/p/small"))
            _ = try await store.recordProcessed(Self.photo(signature), sha256: sha(2), source: source("/p/large"))
            _ = try await store.recordProcessed(Self.photo(other), sha256: sha(3), source: source("/p/other"))

            var groups = try await DuplicateFinder(store: store).groups()
            #expect(groups.map { $0.members.map(\.id) } == [[2, 1]], "the larger photo is the best")
            #expect(groups.first?.members.map(\.distance) == [0, 3])
            #expect(groups.first?.bestChosenByUser == false)

            try await store.keep(1, of: [1, 2])
            groups = try await DuplicateFinder(store: store).groups()
            #expect(groups.first?.best == 1 && groups.first?.bestChosenByUser == true)
            #expect(try await DistinctEntries.load(store).isShown(2) == false)

            try await store.markDistinct([2, 1])
            #expect(try await DuplicateFinder(store: store).groups().isEmpty)
            #expect(try await store.duplicateDecisions() == DuplicateDecisions(distinct: [EntryPair(1, 2)], kept: [1]))
            // A copy keeps the decisions.
            let copied = try await openStore(.sqlite, in: directory, name: "copy")
            _ = try await CatalogCopier(source: store, target: copied).run { _ in }
            #expect(try await copied.duplicateDecisions() == DuplicateDecisions(distinct: [EntryPair(1, 2)], kept: [1]))
            await #expect(throws: CatalogError.self) { try await store.markDistinct([1, 99]) }
        }
    }

    @Test func theBestOfAGroupIsLargestThenSharperThenLessCompressed() {
        func entry(_ id: Int64, width: Int, sharpness: Double, bytes: Int64) -> SignedEntry {
            var signature = Self.signatures(1)[0]
            signature.sharpness = sharpness
            return SignedEntry(id: id, signature: signature, width: width, height: 1000, fileSize: bytes, path: "/p/\(id)")
        }
        #expect(DuplicateGroup.isBetter(entry(2, width: 2000, sharpness: 1, bytes: 10), than: entry(1, width: 1000, sharpness: 9, bytes: 99)))
        #expect(DuplicateGroup.isBetter(entry(2, width: 1000, sharpness: 9, bytes: 10), than: entry(1, width: 1000, sharpness: 5, bytes: 99)))
        #expect(DuplicateGroup.isBetter(entry(2, width: 1000, sharpness: 5.2, bytes: 99), than: entry(1, width: 1000, sharpness: 5, bytes: 10)))
        #expect(DuplicateGroup.isBetter(entry(1, width: 1000, sharpness: 5, bytes: 10), than: entry(2, width: 1000, sharpness: 5, bytes: 10)))
    }

    @Test func quarterVariantsCoverEveryValueWithinTheirBits() {
        let variants = SimilarityQuery.variants(of: 0xA5A5, flipping: 2)
        #expect(variants.count == 1 + 16 + 120 && Set(variants).count == variants.count)
        #expect(variants.allSatisfy { ($0 ^ 0xA5A5).nonzeroBitCount <= 2 })
    }
}
