import Foundation
import Testing
@testable import Processing
import SampleImages

/// The near-duplicate signature on a test set of real subjects over real photos (the corpus's
/// Tux Paint stamps over scikit-image's photos, or generated scenes without the corpus), cut out by
/// u2netp: how many copies land near their original, and how many other subjects do.
@Suite(.timeLimit(.minutes(15)))
struct NearDuplicateRecallTests {
    static let modelFolder: URL? = ProcessInfo.processInfo.environment["STICKER_U2NETP_DIR"].map { URL(fileURLWithPath: $0) }
    static let corpus: URL? = ProcessInfo.processInfo.environment["STICKER_CORPUS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }

    /// Prints the figures Benchmarks/README.md quotes (`STICKER_CORPUS=... STICKER_U2NETP_DIR=... swift test
    /// --filter NearDuplicateRecallTests`), and holds the floors they must not fall under.
    @Test(.enabled(if: modelFolder != nil, "set STICKER_U2NETP_DIR to a folder with u2netp.json and u2netp.bin"))
    func copiesLandNearTheirOriginalAndOtherSubjectsDoNot() async throws {
        let predictor = try NetworkMaskPredictor.installed(.u2netp, in: try #require(Self.modelFolder))
        let processor = PhotoProcessor(predictor: predictor)
        let set = try NearDuplicateSet.standard(corpus: Self.corpus)
        var signatures: [(group: Int, change: String, signature: SimilaritySignature)] = []
        for photo in set.photos {
            let processed = try await processor.process(photo.bytes)
            signatures.append((photo.group, photo.change, try #require(processed.signature)))
        }
        let score = NearDuplicateScore(signatures, within: SimilaritySignature.defaultWithin)
        let report = "near-duplicate set (\(Self.corpus == nil ? "generated scenes" : "corpus stamps over corpus photos"), u2netp): "
            + "\(set.photos.count) photos in \(Set(set.photos.map(\.group)).count) groups\n\(score)"
        print(report)
        #expect(score.recall >= 0.90, "\(report)")
        #expect(score.falsePositiveRate <= 0.01, "\(report)")
    }
}
