import Foundation

/// The segmentation network as a mask predictor: its probability map, min-max normalised over
/// the frame as rembg does, at the network's input size (320 x 320 for u2net and u2netp).
public struct NetworkMaskPredictor: MaskPredictor {
    public let network: SegmentationNetwork
    /// Which model the network is.
    public let model: CutoutModel
    /// The arithmetic the network's convolutions run in.
    public var precision: InferencePrecision { network.precision }

    public func predictMask(for image: RGBAImage) throws(ProcessingError) -> LowResolutionMask {
        let map = try network.predict(image)
        let low = map.min() ?? 0, high = map.max() ?? 1
        let range = high - low
        let values = range > 1e-6 ? map.map { ($0 - low) / range } : [Float](repeating: 0, count: map.count)
        return LowResolutionMask(width: network.inputWidth, height: network.inputHeight, values: values)
    }

    /// The installed `model` from the first of `folders` that holds it (the caller's lookup order, such
    /// as `CatalogEnvironment.modelFolders`); nil when none does (`make model` installs it). A damaged
    /// model is a thrown `.invalidModel` (never skipped for a later folder), and another model is never
    /// taken in its place. The network runs in `precision` (float32, the reference, unless told).
    public static func installed(
        _ model: CutoutModel, among folders: [URL], precision: InferencePrecision = .fp32
    ) throws(ProcessingError) -> NetworkMaskPredictor? {
        guard let folder = folder(holding: model, among: folders) else { return nil }
        let network = try SegmentationNetwork(
            graph: folder.appendingPathComponent(model.graphFile), weights: folder.appendingPathComponent(model.weightsFile),
            precision: precision
        )
        return NetworkMaskPredictor(network: network, model: model)
    }

    /// `model` from `directory`, the one folder the user named: missing there is a thrown `.segmentationUnavailable`.
    public static func installed(
        _ model: CutoutModel, in directory: URL, precision: InferencePrecision = .fp32
    ) throws(ProcessingError) -> NetworkMaskPredictor {
        guard let predictor = try installed(model, among: [directory], precision: precision) else {
            throw .segmentationUnavailable("no \(model.graphFile) and \(model.weightsFile) in \(directory.path)")
        }
        return predictor
    }

    /// The folder `installed(_:among:)` loads `model` from: the first that holds it.
    public static func folder(holding model: CutoutModel, among folders: [URL]) -> URL? {
        folders.first { holds(model, $0) }
    }

    private static func holds(_ model: CutoutModel, _ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(model.graphFile).path)
            && FileManager.default.fileExists(atPath: folder.appendingPathComponent(model.weightsFile).path)
    }
}
