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
            // A guard against a broken int8 path (a wrong scale or layout gives IoUs near 0), not the
            // quality bar, which is measured on composites (`int8OnComposites`): on this scene u2net
            // agrees to 0.999, u2netp to 0.984.
            #expect(iou >= 0.95, "\(model)")
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

/// Not a timed test: with `STICKER_PRECISION_COMPOSITES=DIR` (a folder `../shared/corpus/fetch.sh`
/// filled: real photos in photos/, real objects with soft alpha in stamps/) it pastes objects over
/// photos at 320 x 320, where the true mask is the object's alpha, and prints for each model the
/// mean mask IoU of int8 against float32 and of each against the truth (the quality bar of the
/// precision: agreement >= 0.99, the drop against the truth <= 0.005).
/// `STICKER_PRECISION_COMPOSITES=testdata-3p STICKER_U2NET_DIR=... swift test --filter int8OnComposites`
extension Int8NetworkTests {
    static let compositeFolder = ProcessInfo.processInfo.environment["STICKER_PRECISION_COMPOSITES"].map { URL(fileURLWithPath: $0) }

    static func images(in folder: URL, limit: Int) throws -> [RGBAImage] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.sorted()
        return names.prefix(limit).compactMap { name in
            guard let bytes = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { return nil }
            return try? PhotoDecoder.decode([UInt8](bytes), options: DecodeOptions(workingSize: 1024)).image
        }
    }

    @Test(.enabled(if: !models.isEmpty && compositeFolder != nil, "set a model folder and STICKER_PRECISION_COMPOSITES=DIR"))
    func int8OnComposites() throws {
        let folder = try #require(Self.compositeFolder)
        let photos = try Self.images(in: folder.appendingPathComponent("photos"), limit: 40).filter { $0.width >= 200 && $0.height >= 200 }
        let stamps = try Self.images(in: folder.appendingPathComponent("stamps"), limit: 400).filter { image in
            stride(from: 3, to: image.pixels.count, by: 4).contains { image.pixels[$0] < 128 }
        }
        try #require(!photos.isEmpty && !stamps.isEmpty)
        var random = SplitMix64(state: 20_261_207)
        var composites: [(image: RGBAImage, truth: [Bool])] = []
        for index in 0..<60 {
            let background = ImageResizer.resized(photos[index % photos.count], width: 320, height: 320)
            let stamp = ImageResizer.fitted(stamps[Int(random.next(stamps.count))], longSide: 120 + random.next(120))
            let left = random.next(320 - stamp.width + 1), top = random.next(320 - stamp.height + 1)
            var pixels = background.pixels
            var truth = [Bool](repeating: false, count: 320 * 320)
            for y in 0..<stamp.height {
                for x in 0..<stamp.width {
                    let s = (y * stamp.width + x) * 4, d = ((top + y) * 320 + left + x) * 4
                    let alpha = Int(stamp.pixels[s + 3])
                    for channel in 0..<3 {
                        pixels[d + channel] = UInt8((Int(stamp.pixels[s + channel]) * alpha + Int(pixels[d + channel]) * (255 - alpha) + 127) / 255)
                    }
                    truth[(top + y) * 320 + left + x] = alpha >= 128
                }
            }
            composites.append((RGBAImage(width: 320, height: 320, pixels: pixels), truth))
        }
        func normalised(_ map: [Float]) -> [Float] {
            let low = map.min() ?? 0, high = map.max() ?? 1
            return high - low > 1e-6 ? map.map { ($0 - low) / (high - low) } : map.map { _ in 0 }
        }
        func iou(_ a: [Bool], _ b: [Bool]) -> Double {
            let both = zip(a, b).filter { $0 && $1 }.count, either = zip(a, b).filter { $0 || $1 }.count
            return either == 0 ? 1 : Double(both) / Double(either)
        }
        for (model, modelFolder) in Self.models {
            let float32 = try Self.load(model, modelFolder, .fp32), int8 = try Self.load(model, modelFolder, .int8)
            var agreement: [Double] = [], truthFloat: [Double] = [], truthInt8: [Double] = []
            for composite in composites {
                let input = float32.preprocessed(composite.image)
                let a = normalised(try float32.run(input)).map { $0 > 0.5 }, b = normalised(try int8.run(input)).map { $0 > 0.5 }
                agreement.append(iou(a, b))
                truthFloat.append(iou(a, composite.truth))
                truthInt8.append(iou(b, composite.truth))
            }
            func mean(_ values: [Double]) -> String { String(format: "%.4f", values.reduce(0, +) / Double(values.count)) }
            print("\(model) on \(composites.count) composites (\(photos.count) photos, \(stamps.count) objects): int8 against fp32 mean IoU "
                  + "\(mean(agreement)), lowest \(String(format: "%.4f", agreement.min() ?? 0)); against the truth fp32 \(mean(truthFloat)), "
                  + "int8 \(mean(truthInt8))")
        }
    }
}
