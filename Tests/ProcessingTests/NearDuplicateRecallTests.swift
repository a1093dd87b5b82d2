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

    static func images(in folder: URL, names: [String]) -> [RGBAImage] {
        names.compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { return nil }
            return try? PhotoDecoder.decode(Array(data), options: DecodeOptions(maxPixels: 1 << 26, workingSize: 1024)).image
        }
    }

    static func testSet() throws -> NearDuplicateSet {
        if let corpus {
            let stamps = try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent("stamps").path)
                .filter { $0.hasSuffix(".png") }.sorted()
            let chosen = stride(from: 0, to: stamps.count, by: max(1, stamps.count / 24)).map { stamps[$0] }
            let subjects = images(in: corpus.appendingPathComponent("stamps"), names: chosen).filter { $0.width >= 64 && $0.height >= 64 }
            let backgrounds = images(in: corpus.appendingPathComponent("photos"), names: [
                "astronaut.png", "chelsea.png", "coffee.png", "rocket.jpg", "motorcycle_left.png", "hubble_deep_field.jpg",
                "grass.png", "gravel.png", "brick.png", "retina.jpg", "color.png", "ihc.png",
            ])
            return try NearDuplicateSet.make(subjects: Array(subjects.prefix(20)), backgrounds: backgrounds)
        }
        let subjects = (0..<12).map { (index: Int) -> RGBAImage in
            let red = UInt8(60 + index * 37 % 180), green = UInt8(40 + index * 53 % 160), blue = UInt8(90 + index * 29 % 140)
            let shape = SampleScene.Shape.allCases[index % SampleScene.Shape.allCases.count]
            let scene = SampleScene(width: 600, height: 600, background: .gradient(top: RGB(0, 0, 0), bottom: RGB(0, 0, 0)),
                                    shape: shape, subjectColor: RGB(red, green, blue), centerX: 0.5, radius: 0.4, seed: UInt64(index))
            return scene.renderCutout()
        }
        let backgrounds = (0..<6).map { (index: Int) -> RGBAImage in
            let tint = RGB(UInt8(80 + index * 20), 120, UInt8(160 - index * 15))
            let scene = SampleScene(width: 900, height: 640, background: .noise(tint, amplitude: 40),
                                    shape: .ellipse, subjectColor: RGB(0, 0, 0), centerX: 0.5, radius: 0.0, seed: UInt64(index))
            return scene.renderPhoto()
        }
        return try NearDuplicateSet.make(subjects: subjects, backgrounds: backgrounds)
    }

    /// Prints the figures Benchmarks/README.md quotes (`STICKER_CORPUS=... STICKER_U2NETP_DIR=... swift test
    /// --filter NearDuplicateRecallTests`), and holds the floors they must not fall under.
    @Test(.enabled(if: modelFolder != nil, "set STICKER_U2NETP_DIR to a folder with u2netp.json and u2netp.bin"))
    func copiesLandNearTheirOriginalAndOtherSubjectsDoNot() async throws {
        let predictor = try NetworkMaskPredictor.installed(.u2netp, in: try #require(Self.modelFolder))
        let processor = PhotoProcessor(predictor: predictor)
        let set = try Self.testSet()
        var signatures: [(group: Int, change: String, signature: SimilaritySignature)] = []
        for photo in set.photos {
            let processed = try await processor.process(photo.bytes)
            signatures.append((photo.group, photo.change, try #require(processed.signature)))
        }
        let within = SimilaritySignature.defaultWithin
        let originals = Dictionary(uniqueKeysWithValues: signatures.filter { $0.change == "original" }.map { ($0.group, $0.signature) })
        var report = "near-duplicate set (\(Self.corpus == nil ? "generated scenes" : "corpus stamps over corpus photos"), u2netp): "
            + "\(set.photos.count) photos in \(originals.count) groups, within \(within)\n"
        var found = 0, copies = 0
        for change in NearDuplicateSet.changes.dropFirst().map(\.0) + ["other background"] {
            let distances = signatures.filter { $0.change == change }.compactMap { copy in
                originals[copy.group].map { copy.signature.distance(to: $0) }
            }
            let near = distances.filter { $0 <= within }.count
            report += "  \(change): \(near) of \(distances.count) found\n"
            // The issue's changes; the same subject over another background is a harder case, reported apart.
            if change != "other background" {
                found += near
                copies += distances.count
            }
        }
        var grouped = 0, pairs = 0
        for first in signatures.indices {
            for second in signatures.indices where second > first && signatures[first].group != signatures[second].group {
                pairs += 1
                if signatures[first].signature.distance(to: signatures[second].signature) <= within { grouped += 1 }
            }
        }
        let recall = Double(found) / Double(max(copies, 1)), falsePositives = Double(grouped) / Double(max(pairs, 1))
        report += String(format: "  copies found: %d of %d (%.1f %%); distinct pairs grouped: %d of %d (%.2f %%)", found, copies,
                         recall * 100, grouped, pairs, falsePositives * 100)
        print(report)
        #expect(recall >= 0.90, "\(report)")
        #expect(falsePositives <= 0.01, "\(report)")
    }
}
