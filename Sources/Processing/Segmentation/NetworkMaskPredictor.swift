import Foundation

/// The segmentation network as a mask predictor: its probability map, min-max normalised over
/// the frame as rembg does, at the network's input size (320 x 320 for u2netp).
public struct NetworkMaskPredictor: MaskPredictor {
    public let network: SegmentationNetwork

    public init(network: SegmentationNetwork) {
        self.network = network
    }

    public func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
        let map = try network.predict(image)
        let low = map.min() ?? 0, high = map.max() ?? 1
        let range = high - low
        let values = range > 1e-6 ? map.map { ($0 - low) / range } : [Float](repeating: 0, count: map.count)
        return LowResolutionMask(width: network.inputWidth, height: network.inputHeight, values: values)
    }

    /// The installed u2netp model: `$STICKER_MODEL_DIR`, else `$XDG_DATA_HOME/sticker-catalog/models`
    /// (~/.local/share/sticker-catalog/models), or `directory` when given. nil when no model is
    /// installed there (`make model` installs it); a damaged model is a thrown `.invalidModel`.
    public static func installed(in directory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ProcessingError) -> NetworkMaskPredictor? {
        let folder = directory ?? modelDirectory(environment: environment)
        let graph = folder.appendingPathComponent("u2netp.json")
        let weights = folder.appendingPathComponent("u2netp.bin")
        guard FileManager.default.fileExists(atPath: graph.path), FileManager.default.fileExists(atPath: weights.path) else {
            if directory != nil { throw .segmentationUnavailable("no u2netp.json and u2netp.bin in \(folder.path)") }
            return nil
        }
        return NetworkMaskPredictor(network: try SegmentationNetwork(graph: graph, weights: weights))
    }

    /// Where `make model` puts the model, and where it is looked for.
    public static func modelDirectory(environment: [String: String]) -> URL {
        if let explicit = environment["STICKER_MODEL_DIR"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return URL(fileURLWithPath: dataHome).appendingPathComponent("sticker-catalog/models")
    }
}
