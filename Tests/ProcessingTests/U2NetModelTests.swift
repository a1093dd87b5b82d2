import Foundation
import Testing
@testable import Processing


/// The real u2netp, only when `STICKER_U2NETP_DIR` holds u2netp.json and u2netp.bin.
@Suite(.timeLimit(.minutes(15)))
struct U2NetPTests {
    static let folder: URL? = ProcessInfo.processInfo.environment["STICKER_U2NETP_DIR"].map { URL(fileURLWithPath: $0) }

    /// A 320 x 320 scene (no resizing involved): a warm disc on a cool gradient.
    static func scene() -> RGBAImage {
        var pixels: [UInt8] = []
        for y in 0..<320 {
            for x in 0..<320 {
                let dx = x - 170, dy = y - 150
                if dx * dx + dy * dy < 90 * 90 {
                    pixels += [UInt8(200 + (x + y) % 40), UInt8(60 + x % 50), UInt8(40 + y % 30), 255]
                } else {
                    pixels += [UInt8(30 + x / 8), UInt8(80 + y / 4), UInt8(150 + (x + y) / 10), 255]
                }
            }
        }
        return RGBAImage(width: 320, height: 320, pixels: pixels)
    }

    @Test(.enabled(if: folder != nil, "set STICKER_U2NETP_DIR to a folder with u2netp.json and u2netp.bin"))
    func matchesOnnxRuntime() throws {
        let folder = try #require(Self.folder)
        let network = try SegmentationNetwork(graph: folder.appendingPathComponent("u2netp.json"),
                                              weights: folder.appendingPathComponent("u2netp.bin"))
        #expect(network.multiplyAdds == 19_756_089_600)
        let map = try network.predict(Self.scene())
        #expect(map.count == 320 * 320)
        // Fingerprint of onnxruntime 1 thread on the same input (see the commit message).
        let mean = map.reduce(0, +) / Float(map.count)
        #expect(abs(mean - Fingerprint.mean) < 1e-4)
        for (index, value) in Fingerprint.samples {
            #expect(abs(map[index] - value) < 1e-3, "pixel \(index)")
        }
    }
}

extension U2NetPTests {
    /// Layers shared by two workers (a spare core) give the same map, float for float, on
    /// every path, directly and by Winograd.
    @Test(.enabled(if: folder != nil, "set STICKER_U2NETP_DIR to a folder with u2netp.json and u2netp.bin"))
    func layersSharedWithASpareCoreGiveTheSameMap() throws {
        let folder = try #require(Self.folder)
        let network = try SegmentationNetwork(graph: folder.appendingPathComponent("u2netp.json"),
                                              weights: folder.appendingPathComponent("u2netp.bin"), keepsDirectWeights: true)
        let input = network.preprocessed(Self.scene())
        let helpedBefore = SharedRows.piecesOnSecondWorker.load(ordering: .relaxed)
        for kernels in ConvolutionKernels.supported {
            for winograd in kernels.hasWinograd ? [true, false] : [false] {
                let alone = try network.run(input, kernels: kernels, winograd: winograd, spare: nil)
                let shared = try network.run(input, kernels: kernels, winograd: winograd, spare: SpareCores(jobs: 2, cores: 2))
                #expect(shared == alone, "\(kernels), Winograd \(winograd)")
            }
        }
        // A budget with no spare core never shares.
        let busy = SpareCores(jobs: 1, cores: 2)
        #expect(try network.run(input, spare: busy) == network.run(input, spare: nil))
        #expect(SharedRows.piecesOnSecondWorker.load(ordering: .relaxed) > helpedBefore, "no piece ran on the second worker")
    }

    /// Not a timed test: with `STICKER_BENCH_NETWORK=N` it prints the network's thread CPU time per
    /// prediction (median of N) on every vector path the CPU has, the runs interleaved (AVX2,
    /// AVX-512, AVX2, ...) so both see the same machine load, the ratio of the medians, and the
    /// same per layer class (steps grouped by op, channels and size; the median of each group's
    /// per-run sum); then the direct 3x3 convolutions once, and checks the maps agree.
    /// `STICKER_U2NETP_DIR=.build/test-model STICKER_BENCH_NETWORK=9 swift test --filter networkTiming`
    static let benchRuns = ProcessInfo.processInfo.environment["STICKER_BENCH_NETWORK"].flatMap { Int($0) }

    @Test(.enabled(if: folder != nil && benchRuns != nil, "set STICKER_U2NETP_DIR and STICKER_BENCH_NETWORK=runs"))
    func networkTiming() throws {
        try Self.timing(model: "u2netp", folder: #require(Self.folder))
    }

    /// `networkTiming` for `model` (NAME.json and NAME.bin in `folder`): the load's thread CPU time
    /// and the weights it keeps, the predictions per path and layer class, then the map of a
    /// network that runs every 3x3 convolution directly from the float32 weights.
    static func timing(model: String, folder: URL) throws {
        func cpu() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        func ms(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000) }
        let loadStart = cpu()
        let network = try SegmentationNetwork(graph: folder.appendingPathComponent(model + ".json"),
                                              weights: folder.appendingPathComponent(model + ".bin"))
        print("\(model) load CPU s: \(String(format: "%.3f", cpu() - loadStart)); weights kept: \(network.weightBytes / 1_000_000) MB; "
              + "activation slots: \(network.activationFloats * 4 / 1_000_000) MB")
        let input = network.preprocessed(Self.scene())
        let paths = ConvolutionKernels.supported.filter(\.hasWinograd)
        let names = network.stepNames
        let groups = Array(Set(names)).sorted()
        var totals: [ConvolutionKernels: [Double]] = [:]
        var groupTimes: [ConvolutionKernels: [String: [Double]]] = [:]
        var maps: [ConvolutionKernels: [Float]] = [:]
        for _ in 0..<max(1, Self.benchRuns ?? 1) {
            for kernels in paths {
                var steps = [Double](repeating: 0, count: names.count)
                let start = cpu()
                maps[kernels] = try network.run(input, kernels: kernels, stepTime: { steps[$0] = $1 })
                totals[kernels, default: []].append(cpu() - start)
                var sums: [String: Double] = [:]
                for (index, time) in steps.enumerated() { sums[names[index], default: 0] += time }
                for (name, time) in sums { groupTimes[kernels, default: [:]][name, default: []].append(time) }
            }
        }
        for kernels in paths {
            let times = try #require(totals[kernels])
            print("\(model) \(kernels) CPU ms per prediction: median \(ms(median(times))) of \(times.map(ms))")
        }
        if paths.count > 1, let first = paths.first, let last = paths.last,
           let a = totals[first], let b = totals[last] {
            print("\(model) \(last) / \(first): \(String(format: "%.3f", median(b) / median(a))) (medians of one interleaved run)")
        }
        print("layer class | count | " + paths.map { "\($0) ms" }.joined(separator: " | ") + (paths.count > 1 ? " | ratio" : ""))
        let widest = paths.last ?? .scalar, base = paths.first ?? .scalar
        for group in groups.sorted(by: { median(groupTimes[base]?[$0] ?? [0]) > median(groupTimes[base]?[$1] ?? [0]) }) {
            let medians = paths.map { median(groupTimes[$0]?[group] ?? [0]) }
            let ratio = paths.count > 1 ? String(format: " | %.2f", median(groupTimes[widest]?[group] ?? [0]) / max(medians[0], 1e-9)) : ""
            print("\(group) | \(names.filter { $0 == group }.count) | " + medians.map(ms).joined(separator: " | ") + ratio)
        }
        let directNetwork = try SegmentationNetwork(graph: folder.appendingPathComponent(model + ".json"),
                                                    weights: folder.appendingPathComponent(model + ".bin"), keepsDirectWeights: true)
        let start = cpu()
        let direct = try directNetwork.run(input, winograd: false)
        print("\(model) direct 3x3 (\(network.kernels)) CPU ms: \(ms(cpu() - start))")
        for kernels in paths {
            let map = try #require(maps[kernels])
            let difference = zip(map, direct).map { abs($0 - $1) }.max() ?? 0
            print("\(model) \(kernels) vs direct: max abs difference \(difference)")
            #expect(difference < 1e-3)
        }
        // The AVX-512 path computes the same floats as the AVX2 one (same sums, same order).
        if let first = paths.first, let last = paths.last, first != last {
            print("\(model) \(last) map equals \(first)'s: \(maps[first] == maps[last])")
            #expect(maps[first] == maps[last])
        }
    }
}

/// onnxruntime 1.x (1 thread) on `U2NetPTests.scene()` prepared the same way (mean over the
/// 320 x 320 map, and flat indices y * 320 + x), computed once with the exporter's venv.
private enum Fingerprint {
    static let mean: Float = 0.24939602
    static let samples: [(Int, Float)] = [
        (1605, 1.3619661e-05), (48170, 0.99999535), (48260, 0.22281217), (48262, 0.0040215552),
        (76970, 0.2286011), (19300, 3.516674e-06), (102399, 0.00068736076), (32300, 7.957220e-06),
    ]
}

/// The real u2net, only when `STICKER_U2NET_DIR` holds u2net.json and u2net.bin. Its layers of
/// 40 x 40 and below run from half-precision weights (`SegmentationNetworkLoader.runsCompact`), so
/// its map is compared with onnxruntime's within what that rounding moves.
@Suite(.timeLimit(.minutes(15)))
struct U2NetTests {
    static let folder: URL? = ProcessInfo.processInfo.environment["STICKER_U2NET_DIR"].map { URL(fileURLWithPath: $0) }

    @Test(.enabled(if: folder != nil, "set STICKER_U2NET_DIR to a folder with u2net.json and u2net.bin"))
    func matchesOnnxRuntime() throws {
        let folder = try #require(Self.folder)
        let network = try SegmentationNetwork(graph: folder.appendingPathComponent("u2net.json"),
                                              weights: folder.appendingPathComponent("u2net.bin"))
        #expect(network.multiplyAdds == 58_598_246_400)
        let map = try network.predict(U2NetPTests.scene())
        #expect(map.count == 320 * 320)
        let mean = map.reduce(0, +) / Float(map.count)
        #expect(abs(mean - U2NetFingerprint.mean) < 1e-3, "mean \(mean)")
        for (index, value) in U2NetFingerprint.samples {
            #expect(abs(map[index] - value) < 1e-2, "pixel \(index): \(map[index]) against \(value)")
        }
        // With `STICKER_U2NET_REFERENCE` naming the whole map (reference_map.py --save FILE): the largest difference.
        if let path = ProcessInfo.processInfo.environment["STICKER_U2NET_REFERENCE"],
           let data = FileManager.default.contents(atPath: path), data.count == 320 * 320 * 4 {
            let reference = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let differences = zip(map, reference).map { abs($0 - $1) }
            let largest = differences.max() ?? 0
            let mean = differences.reduce(0, +) / Float(differences.count)
            print("u2net against onnxruntime: max abs difference \(largest), mean \(mean), above 0.01: \(differences.filter { $0 > 0.01 }.count)")
            #expect(largest < 0.05)
        }
    }

    /// `U2NetPTests.networkTiming` for u2net: `STICKER_U2NET_DIR=DIR STICKER_BENCH_NETWORK=5 swift test --filter u2netTiming`.
    @Test(.enabled(if: folder != nil && U2NetPTests.benchRuns != nil, "set STICKER_U2NET_DIR and STICKER_BENCH_NETWORK=runs"))
    func u2netTiming() throws {
        try U2NetPTests.timing(model: "u2net", folder: #require(Self.folder))
    }
}

/// onnxruntime 1.32 (1 thread) on `U2NetPTests.scene()` with u2net.onnx, from
/// `Benchmarks/cutout/reference_map.py`: the mean of the 320 x 320 map, and values at flat indices
/// y * 320 + x (the last eight on the disc's edge, where u2net's map is neither 0 nor 1).
private enum U2NetFingerprint {
    static let mean: Float = 0.24841787
    static let samples: [(Int, Float)] = [
        (1605, 2.9802322e-08), (48170, 1), (48260, 0.01291573), (48262, 6.5803528e-05), (76970, 0.082314849),
        (19300, 5.9604645e-08), (102399, 4.2945147e-05), (32300, 0), (19357, 0.059368998), (22290, 0.38993943),
        (30962, 0.39466548), (42962, 0.92701709), (56895, 0.87003815), (67624, 0.8019495), (74763, 0.90573514),
        (76981, 0.067236423),
    ]
}
