import Catalog
import Foundation
import Processing
import Synchronization

/// The segmentation models `catalog serve` has loaded, by name and precision: each is loaded when a
/// job first needs it and kept, so a cut-out fixed on the page does not wait for 176 MB to be read again.
/// A precision is a network of its own (int8 packs its weights at load), so each is kept apart.
final class LoadedModels: Sendable {
    /// One loaded network: which model, in which arithmetic.
    private struct Key: Hashable {
        let model: CutoutModel
        let precision: InferencePrecision
    }

    private let environment: CatalogEnvironment
    private let loaded = Mutex<[Key: any MaskPredictor]>([:])

    init(environment: CatalogEnvironment) {
        self.environment = environment
    }

    /// `model` in `precision`, loaded once; an error names what is missing or damaged, and where it looked.
    func predictor(_ model: CutoutModel, precision: InferencePrecision) throws(ProcessingError) -> any MaskPredictor {
        let key = Key(model: model, precision: precision)
        if let predictor = loaded.withLock({ $0[key] }) { return predictor }
        let predictor = try SegmentationModel.load(model, precision: precision, in: nil, environment: environment)
        // Two jobs asking at once may both load it; the first one kept is the one every later job gets.
        return loaded.withLock { models in
            if let kept = models[key] { return kept }
            models[key] = predictor
            return predictor
        }
    }
}
