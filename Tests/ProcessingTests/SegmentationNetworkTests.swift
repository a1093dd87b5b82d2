import CSegmentationKernels
import Foundation
import Testing
@testable import Processing

// MARK: the network

/// Writes a graph and weights into a fresh temporary folder.
private func modelFiles(graph: [String: Any], weights: [Float]) throws -> (URL, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segnet-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let graphURL = folder.appendingPathComponent("tiny.json"), weightsURL = folder.appendingPathComponent("tiny.bin")
    try JSONSerialization.data(withJSONObject: graph).write(to: graphURL)
    try weights.withUnsafeBytes { Data($0) }.write(to: weightsURL)
    return (graphURL, weightsURL)
}

/// A tiny graph with every op: conv3x3 d2 + relu, ceil pool, resize back, add, concat, 1x1 conv, sigmoid.
private func tinyGraph(weightBytes: Int = 4 * (4 * 3 * 9 + 4 + 8 + 1)) -> [String: Any] {
    let conv: [String: Any] = [
        "op": "conv2d", "input": "x", "output": "c", "weight": "w1", "bias": "b1", "kernel": [3, 3], "stride": [1, 1],
        "pad": [2, 2, 2, 2], "dilation": [2, 2], "group": 1, "activation": "relu", "macs": 0,
    ]
    return [
        "format": "sticker-nn-graph", "version": 1,
        "weights": ["file": "tiny.bin", "bytes": weightBytes, "dtype": "f32le"],
        "input": ["name": "x", "shape": [1, 3, 7, 9]],
        "outputs": [["name": "y", "shape": [1, 1, 7, 9]]],
        "tensors": ["x": [1, 3, 7, 9], "c": [1, 4, 7, 9], "p": [1, 4, 4, 5], "r": [1, 4, 7, 9], "s": [1, 4, 7, 9],
                    "k": [1, 8, 7, 9], "z": [1, 1, 7, 9], "y": [1, 1, 7, 9]],
        "params": [
            "w1": ["offset": 0, "shape": [4, 3, 3, 3], "count": 108], "b1": ["offset": 432, "shape": [4], "count": 4],
            "w2": ["offset": 448, "shape": [1, 8, 1, 1], "count": 8], "b2": ["offset": 480, "shape": [1], "count": 1],
        ],
        "nodes": [
            conv,
            ["op": "maxpool2d", "input": "c", "output": "p", "kernel": [2, 2], "stride": [2, 2], "pad": [0, 0, 0, 0], "ceil_mode": true],
            ["op": "resize_bilinear", "input": "p", "output": "r", "size": [7, 9], "like": "c", "coordinate_mode": "half_pixel"],
            ["op": "add", "inputs": ["r", "c"], "output": "s"],
            ["op": "concat", "inputs": ["s", "c"], "output": "k", "axis": 1],
            ["op": "conv2d", "input": "k", "output": "z", "weight": "w2", "bias": "b2", "kernel": [1, 1], "stride": [1, 1],
             "pad": [0, 0, 0, 0], "dilation": [1, 1], "group": 1, "activation": NSNull(), "macs": 0],
            ["op": "sigmoid", "input": "z", "output": "y"],
        ],
    ]
}

@Suite(.timeLimit(.minutes(15)))
struct SegmentationNetworkTests {
    @Test func tinyGraphMatchesTheReferences() throws {
        var noise = Noise(state: 21)
        let weights = noise.array(4 * 3 * 9 + 4 + 8 + 1)
        let (graphURL, weightsURL) = try modelFiles(graph: tinyGraph(), weights: weights)
        let network = try SegmentationNetwork(graph: graphURL, weights: weightsURL)
        #expect(network.inputWidth == 9 && network.inputHeight == 7)
        let x = noise.array(3 * 7 * 9)
        let got = try network.run(x)

        let c = referenceConv(x, c: 3, h: 7, w: 9, weight: Array(weights[0..<108]), bias: Array(weights[108..<112]), o: 4,
                              kernel: 3, dilation: 2, relu: true)
        let p = referenceMaxPool(c, c: 4, h: 7, w: 9)
        let r = referenceResize(p, c: 4, h: 4, w: 5, ho: 7, wo: 9)
        let k = zip(r, c).map { $0 + $1 } + c
        let z = referenceConv(k, c: 8, h: 7, w: 9, weight: Array(weights[112..<120]), bias: [weights[120]], o: 1,
                              kernel: 1, dilation: 1, relu: false)
        #expect(maxDifference(got, z.map { 1 / (1 + exp(-$0)) }) < 1e-5)
    }

    /// Concatenations, 2x resizes and residual adds around F(4x4, 3x3) convolutions are fused away;
    /// the result must equal the unfused graph's (the direct path materialises them).
    @Test(.enabled(if: sk_uses_winograd4() == 1, "needs a vector kernel path (AVX2 or AVX-512; STICKER_KERNELS=scalar turns them off)"))
    func fusedConcatenationAndAddMatchTheUnfusedGraph() throws {
        // x(3) -> a = conv(x) 8ch relu; b = conv(x) 8ch; u = resize(maxpool(a)) 2x; k = concat(u, b) 16ch;
        // c = conv(k) 8ch relu; s = c + b; m = concat(s, a); z = conv1x1(m) -> sigmoid. u, k and c + b
        // fuse; m feeds a 1x1, so it does not.
        func conv(_ input: String, _ output: String, _ weight: String, _ bias: String, kernel: Int, relu: Bool) -> [String: Any] {
            ["op": "conv2d", "input": input, "output": output, "weight": weight, "bias": bias, "kernel": [kernel, kernel],
             "stride": [1, 1], "pad": Array(repeating: kernel / 2, count: 4), "dilation": [1, 1], "group": 1,
             "activation": relu ? "relu" : NSNull()]
        }
        let sizes = [("wa", [8, 3, 3, 3]), ("ba", [8]), ("wb", [8, 3, 3, 3]), ("bb", [8]), ("wc", [8, 16, 3, 3]), ("bc", [8]),
                     ("wz", [1, 16, 1, 1]), ("bz", [1])]
        var params: [String: Any] = [:]
        var offset = 0
        for (name, shape) in sizes {
            let count = shape.reduce(1, *)
            params[name] = ["offset": offset * 4, "shape": shape, "count": count]
            offset += count
        }
        let (h, w) = (14, 22)
        let graph: [String: Any] = [
            "format": "sticker-nn-graph", "version": 1,
            "weights": ["file": "f.bin", "bytes": offset * 4, "dtype": "f32le"],
            "input": ["name": "x", "shape": [1, 3, h, w]],
            "outputs": [["name": "y", "shape": [1, 1, h, w]]],
            "tensors": ["x": [1, 3, h, w], "a": [1, 8, h, w], "b": [1, 8, h, w], "k": [1, 16, h, w], "c": [1, 8, h, w],
                        "p": [1, 8, h / 2, w / 2], "u": [1, 8, h, w],
                        "s": [1, 8, h, w], "m": [1, 16, h, w], "z": [1, 1, h, w], "y": [1, 1, h, w]],
            "params": params,
            "nodes": [
                conv("x", "a", "wa", "ba", kernel: 3, relu: true), conv("x", "b", "wb", "bb", kernel: 3, relu: false),
                ["op": "maxpool2d", "input": "a", "output": "p", "kernel": [2, 2], "stride": [2, 2], "pad": [0, 0, 0, 0], "ceil_mode": true],
                ["op": "resize_bilinear", "input": "p", "output": "u", "size": [h, w], "coordinate_mode": "half_pixel"],
                ["op": "concat", "inputs": ["u", "b"], "output": "k", "axis": 1],
                conv("k", "c", "wc", "bc", kernel: 3, relu: true),
                ["op": "add", "inputs": ["c", "b"], "output": "s"],
                ["op": "concat", "inputs": ["s", "a"], "output": "m", "axis": 1],
                conv("m", "z", "wz", "bz", kernel: 1, relu: false),
                ["op": "sigmoid", "input": "z", "output": "y"],
            ],
        ]
        var noise = Noise(state: 99)
        let (graphURL, weightsURL) = try modelFiles(graph: graph, weights: noise.array(offset).map { $0 * 0.5 })
        let network = try SegmentationNetwork(graph: graphURL, weights: weightsURL, keepsDirectWeights: true)
        let x = noise.array(3 * h * w)
        let fused = try network.run(x), unfused = try network.run(x, winograd: false)
        #expect(maxDifference(fused, unfused) < 1e-5)
        #expect(Set(fused).count > 100)
        // Every path the CPU has, against a network loaded for the scalar path (nothing fused).
        let scalarNetwork = try SegmentationNetwork(graph: graphURL, weights: weightsURL, kernels: .scalar)
        #expect(scalarNetwork.kernels == .scalar)
        let scalar = try scalarNetwork.run(x)
        for kernels in ConvolutionKernels.supported {
            #expect(maxDifference(try network.run(x, kernels: kernels), scalar) < 1e-5, "\(kernels)")
        }
    }

    /// Layers with many channels on a small plane run from compact (half-precision) weights, a dilated
    /// one on its subplanes; with weights half precision holds, the map is the direct path's.
    @Test(.enabled(if: sk_winograd4c_supported(ConvolutionKernels.default.rawValue) == 1, "needs AVX2 or AVX-512 with F16C"))
    func compactLayersMatchTheDirectPath() throws {
        func conv(_ input: String, _ output: String, _ name: String, kernel: Int, dilation: Int = 1) -> [String: Any] {
            ["op": "conv2d", "input": input, "output": output, "weight": "w" + name, "bias": "b" + name, "kernel": [kernel, kernel],
             "stride": [1, 1], "pad": Array(repeating: kernel == 3 ? dilation : 0, count: 4), "dilation": [dilation, dilation],
             "group": 1, "activation": "relu"]
        }
        let (h, w) = (12, 20)
        let sizes = [("wa", [128, 3, 3, 3]), ("ba", [128]), ("wb", [128, 128, 3, 3]), ("bb", [128]),
                     ("wc", [128, 128, 3, 3]), ("bc", [128]), ("wz", [1, 128, 1, 1]), ("bz", [1])]
        var params: [String: Any] = [:]
        var offset = 0
        for (name, shape) in sizes {
            let count = shape.reduce(1, *)
            params[name] = ["offset": offset * 4, "shape": shape, "count": count]
            offset += count
        }
        let graph: [String: Any] = [
            "format": "sticker-nn-graph", "version": 1,
            "weights": ["file": "f.bin", "bytes": offset * 4, "dtype": "f32le"],
            "input": ["name": "x", "shape": [1, 3, h, w]],
            "outputs": [["name": "y", "shape": [1, 1, h, w]]],
            "tensors": ["x": [1, 3, h, w], "a": [1, 128, h, w], "b": [1, 128, h, w], "c": [1, 128, h, w], "z": [1, 1, h, w],
                        "y": [1, 1, h, w]],
            "params": params,
            "nodes": [conv("x", "a", "a", kernel: 3), conv("a", "b", "b", kernel: 3), conv("b", "c", "c", kernel: 3, dilation: 2),
                      conv("c", "z", "z", kernel: 1), ["op": "sigmoid", "input": "z", "output": "y"]],
        ]
        var noise = Noise(state: 5)
        let weights = KernelPathCheck.halfRounded(noise.array(offset).map { $0 * 0.1 })
        let (graphURL, weightsURL) = try modelFiles(graph: graph, weights: weights)
        let network = try SegmentationNetwork(graph: graphURL, weights: weightsURL, keepsDirectWeights: true)
        #expect(network.stepNames.filter { $0.contains("compact") }.count == 2, "\(network.stepNames)")
        let x = noise.array(3 * h * w)
        let compact = try network.run(x), direct = try network.run(x, winograd: false)
        #expect(maxDifference(compact, direct) < 1e-5)
        #expect(Set(compact).count > 100)
        // Without the float32 weights (how networks load), the same map, a fraction of the weights kept.
        let lean = try SegmentationNetwork(graph: graphURL, weights: weightsURL)
        #expect(try lean.run(x) == compact)
        #expect(lean.weightBytes < network.weightBytes / 2)
    }

    @Test func predictPreparesTheImageLikeRembg() throws {
        var noise = Noise(state: 2)
        let (graphURL, weightsURL) = try modelFiles(graph: tinyGraph(), weights: noise.array(121))
        let network = try SegmentationNetwork(graph: graphURL, weights: weightsURL)
        let image = RGBAImage(width: 9, height: 7, pixels: (0..<(9 * 7 * 4)).map { UInt8(($0 * 37) % 200) })
        let input = network.preprocessed(image)
        // The largest channel value is 199 (alpha, every fourth byte, is ignored).
        let maximum = Float(image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element).max() ?? 1)
        let pixel = image.pixel(x: 4, y: 3)
        #expect(abs(input[0 * 63 + 3 * 9 + 4] - (Float(pixel.red) / maximum - 0.485) / 0.229) < 1e-5)
        #expect(abs(input[2 * 63 + 3 * 9 + 4] - (Float(pixel.blue) / maximum - 0.406) / 0.225) < 1e-5)
        let map = try network.predict(image)
        #expect(map.count == 63 && map.allSatisfy { $0 > 0 && $0 < 1 })
    }

    /// Each change makes the tiny graph invalid; loading must throw, not crash.
    @Test(arguments: [
        "bad-json", "format", "bytes", "param-outside", "param-misaligned", "param-shape", "unknown-op", "read-before-write",
        "dilation-pad", "pool-shape", "concat-channels", "missing-output", "written-twice", "huge-tensor", "missing-param",
    ])
    func malformedModelsThrow(_ defect: String) throws {
        var graph = tinyGraph()
        var weights = [Float](repeating: 0.5, count: 121)
        var nodes = graph["nodes"] as! [[String: Any]]
        var params = graph["params"] as! [String: [String: Any]]
        var tensors = graph["tensors"] as! [String: [Int]]
        switch defect {
        case "format": graph["version"] = 2
        case "bytes": weights.removeLast()
        case "param-outside": params["b2"]?["offset"] = 484
        case "param-misaligned": params["w2"]?["offset"] = 446
        case "param-shape": params["w1"]?["shape"] = [4, 3, 3, 2]
        case "unknown-op": nodes[6]["op"] = "softmax"
        case "read-before-write": nodes.swapAt(1, 2)
        case "dilation-pad": nodes[0]["pad"] = [1, 1, 1, 1]
        case "pool-shape": tensors["p"] = [1, 4, 3, 4]
        case "concat-channels": tensors["k"] = [1, 7, 7, 9]
        case "missing-output": graph["outputs"] = [["name": "nowhere", "shape": [1, 1, 7, 9]]]
        case "written-twice": nodes[3]["output"] = "c"
        case "huge-tensor": tensors["x"] = [1, 3, 70000, 9]
        case "missing-param": params["b1"] = nil
        default: break
        }
        graph["nodes"] = nodes
        graph["params"] = params
        graph["tensors"] = tensors
        if defect == "bytes" { graph["weights"] = ["file": "tiny.bin", "bytes": 484, "dtype": "f32le"] }
        var (graphURL, weightsURL) = try modelFiles(graph: graph, weights: weights)
        if defect == "bad-json" {
            try Data("{\"format\": \"sticker-nn-graph\", \"version\": 1, \"nodes\": [".utf8).write(to: graphURL)
        }
        if defect == "bytes" { weightsURL = weightsURL.appendingPathExtension("missing") }
        #expect {
            _ = try SegmentationNetwork(graph: graphURL, weights: weightsURL)
        } throws: { error in
            guard case .invalidModel = error as? ProcessingError else { return false }
            return true
        }
        if defect == "bytes" {
            // The file exists but is 4 bytes shorter than the graph says.
            let (graphURL, weightsURL) = try modelFiles(graph: graph, weights: weights)
            #expect(throws: ProcessingError.self) { try SegmentationNetwork(graph: graphURL, weights: weightsURL) }
        }
    }
}
