import Foundation

/// The segmentation network as a mask predictor: its probability map, min-max normalised over
/// the frame as rembg does, at the network's input size (320 x 320 for u2net and u2netp).
public struct NetworkMaskPredictor: MaskPredictor {
    public let network: SegmentationNetwork
    /// Which model the network is.
    public let model: CutoutModel

    public init(network: SegmentationNetwork, model: CutoutModel) {
        self.network = network
        self.model = model
    }

    public func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
        let map = try network.predict(image)
        let low = map.min() ?? 0, high = map.max() ?? 1
        let range = high - low
        let values = range > 1e-6 ? map.map { ($0 - low) / range } : [Float](repeating: 0, count: map.count)
        return LowResolutionMask(width: network.inputWidth, height: network.inputHeight, values: values)
    }

    /// The installed `model`: in `directory` when given, else in the first of
    /// `modelDirectories(environment:installedFolder:)` that holds it. nil when none does (`make model`
    /// installs it); a damaged model is a thrown `.invalidModel` (never skipped for a later folder),
    /// and another model is never taken in its place.
    public static func installed(
        _ model: CutoutModel, in directory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        installedFolder: URL? = nil
    ) throws(ProcessingError) -> NetworkMaskPredictor? {
        let folders = directory.map { [$0] } ?? modelDirectories(environment: environment, installedFolder: installedFolder)
        guard let folder = folders.first(where: { holds(model, $0) }) else {
            if let directory { throw .segmentationUnavailable("no \(model.graphFile) and \(model.weightsFile) in \(directory.path)") }
            return nil
        }
        let network = try SegmentationNetwork(
            graph: folder.appendingPathComponent(model.graphFile), weights: folder.appendingPathComponent(model.weightsFile)
        )
        return NetworkMaskPredictor(network: network, model: model)
    }

    /// The folder `installed(_:in:environment:installedFolder:)` loads `model` from: the first that holds it.
    public static func folder(holding model: CutoutModel, among folders: [URL]) -> URL? {
        folders.first { holds(model, $0) }
    }

    /// Where the model is looked for, in order: `$STICKER_MODEL_DIR` alone when it is set (an explicit
    /// choice is never second-guessed); else the user's data folder (`modelDirectory(environment:)`),
    /// then `installedFolder`, the model installed with the program (`make install`, the package).
    public static func modelDirectories(environment: [String: String], installedFolder: URL? = nil) -> [URL] {
        if let explicit = environment["STICKER_MODEL_DIR"], !explicit.isEmpty { return [URL(fileURLWithPath: explicit)] }
        return [modelDirectory(environment: environment)] + (installedFolder.map { [$0] } ?? [])
    }

    /// Where `make model` puts the model: `$STICKER_MODEL_DIR`, else `$XDG_DATA_HOME/sticker-catalog/models`
    /// (~/.local/share/sticker-catalog/models).
    public static func modelDirectory(environment: [String: String]) -> URL {
        if let explicit = environment["STICKER_MODEL_DIR"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        return DataHome.url("models", environment: environment)
    }

    private static func holds(_ model: CutoutModel, _ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(model.graphFile).path)
            && FileManager.default.fileExists(atPath: folder.appendingPathComponent(model.weightsFile).path)
    }
}
