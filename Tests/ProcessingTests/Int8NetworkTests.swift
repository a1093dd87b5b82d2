import CSegmentationKernels
import Foundation
import Testing
@testable import Processing

/// The real networks in int8 (only when `STICKER_U2NETP_DIR` / `STICKER_U2NET_DIR` hold them):
/// the same map on every int8 path and however the rows are shared, and a mask that agrees with
/// float32's. With `STICKER_BENCH_NETWORK=N` it also prints float32 and int8 CPU time a prediction,
/// interleaved, and the per-layer times of int8.
@Suite(.timeLimit(.minutes(15)))
struct Int8NetworkTests {
    static let models: [(String, URL)] = [("u2netp", "STICKER_U2NETP_DIR"), ("u2net", "STICKER_U2NET_DIR")].compactMap { model, variable in
        ProcessInfo.processInfo.environment[variable].map { (model, URL(fileURLWithPath: $0)) }
    }

    static func load(_ model: String, _ folder: URL, _ precision: InferencePrecision, direct: Bool = false) throws -> SegmentationNetwork {
        try SegmentationNetwork(graph: folder.appendingPathComponent(model + ".json"), weights: folder.appendingPathComponent(model + ".bin"),
                                precision: precision, keepsDirectWeights: direct)
    }

    /// Pixels above one half in one map and not the other, against those above in either.
    static func maskIoU(_ a: [Float], _ b: [Float]) -> Double {
        var both = 0, either = 0
        for (x, y) in zip(a, b) {
            if x > 0.5 && y > 0.5 { both += 1 }
            if x > 0.5 || y > 0.5 { either += 1 }
        }
        return either == 0 ? 1 : Double(both) / Double(either)
    }

    @Test(.enabled(if: !models.isEmpty, "set STICKER_U2NETP_DIR or STICKER_U2NET_DIR"))
    func everyPathAndSplitGivesTheSameMap() throws {
        for (model, folder) in Self.models {
            let network = try Self.load(model, folder, .int8)
            #expect(network.stepNames.contains { $0.hasSuffix(" int8") }, "\(model) runs convolutions in int8")
            let input = network.preprocessed(U2NetPTests.scene())
            let reference = try network.run(input, int8Path: Int32(SK_Q8_AVX2), spare: nil)
            for path in Int8KernelTests.paths where path != Int32(SK_Q8_SCALAR) || model == "u2netp" {
                let alone = try network.run(input, int8Path: path, spare: nil)
                let shared = try network.run(input, int8Path: path, spare: SpareCores(jobs: 2, cores: 2))
                #expect(alone.map(\.bitPattern) == reference.map(\.bitPattern), "\(model) path \(path)")
                #expect(shared.map(\.bitPattern) == reference.map(\.bitPattern), "\(model) path \(path), rows shared")
            }
        }
    }

    @Test(.enabled(if: !models.isEmpty, "set STICKER_U2NETP_DIR or STICKER_U2NET_DIR"))
    func theMaskAgreesWithFloat32() throws {
        for (model, folder) in Self.models {
            let int8 = try Self.load(model, folder, .int8), float32 = try Self.load(model, folder, .fp32)
            let input = int8.preprocessed(U2NetPTests.scene())
            let a = try int8.run(input), b = try float32.run(input)
            let largest = zip(a, b).map { abs($0 - $1) }.max() ?? 0
            let iou = Self.maskIoU(a, b)
            print("\(model) int8 against fp32: mask IoU \(String(format: "%.4f", iou)), largest difference \(largest)")
            #expect(iou >= 0.99, "\(model)")
        }
    }

    @Test(.enabled(if: !models.isEmpty && U2NetPTests.benchRuns != nil, "set a model folder and STICKER_BENCH_NETWORK=runs"))
    func int8Timing() throws {
        func cpu() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        func ms(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1000) }
        for (model, folder) in Self.models {
            let networks = try [Self.load(model, folder, .fp32), Self.load(model, folder, .int8)]
            let input = networks[0].preprocessed(U2NetPTests.scene())
            var times: [[Double]] = [[], []]
            // Layer classes without how they run ("conv 128->64 320x320"), to set the two side by side.
            let names = networks.map { $0.stepNames.map { $0.split(separator: " ").prefix(3).joined(separator: " ") } }
            var steps: [[String: [Double]]] = [[:], [:]]
            for _ in 0..<max(1, U2NetPTests.benchRuns ?? 1) {
                for (index, network) in networks.enumerated() {
                    var perStep = [Double](repeating: 0, count: names[index].count)
                    let start = cpu()
                    _ = try network.run(input, spare: nil, stepTime: { perStep[$0] = $1 })
                    times[index].append(cpu() - start)
                    var sums: [String: Double] = [:]
                    for (step, time) in perStep.enumerated() { sums[names[index][step], default: 0] += time }
                    for (name, time) in sums { steps[index][name, default: []].append(time) }
                }
            }
            print("\(model) CPU ms a prediction: fp32 \(ms(median(times[0]))), int8 \(ms(median(times[1]))) on \(InferencePrecision.int8.instructions()), "
                  + "ratio \(String(format: "%.3f", median(times[1]) / median(times[0]))) (medians of one interleaved run)")
            let gmacs = Double(networks[1].multiplyAdds) / 1e9
            print("\(model) equivalent GMAC/s: fp32 \(String(format: "%.0f", gmacs / median(times[0]))), int8 \(String(format: "%.0f", gmacs / median(times[1])))")
            print("layer class | count | fp32 ms | int8 ms")
            for (name, values) in steps[0].sorted(by: { median($0.value) > median($1.value) }).prefix(20) {
                print("  \(name) | \(names[0].filter { $0 == name }.count) | \(ms(median(values))) | \(ms(median(steps[1][name] ?? [0])))")
            }
        }
    }
}
