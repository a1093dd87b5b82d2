import Catalog
import Foundation
import Processing
import Synchronization

/// The segmentation models `catalog serve` has loaded, by name: each is loaded when a job first
/// needs it and kept, so a cut-out fixed on the page does not wait for 176 MB to be read again.
final class LoadedModels: Sendable {
    private let environment: CatalogEnvironment
    private let loaded = Mutex<[CutoutModel: any MaskPredictor]>([:])

    init(environment: CatalogEnvironment) {
        self.environment = environment
    }

    /// `model`, loaded once; an error names what is missing or damaged, and where it looked.
    func predictor(_ model: CutoutModel) throws(ProcessingError) -> any MaskPredictor {
        if let predictor = loaded.withLock({ $0[model] }) { return predictor }
        let predictor = try SegmentationModel.load(model, in: nil, environment: environment)
        // Two jobs asking at once may both load it; the first one kept is the one every later job gets.
        return loaded.withLock { models in
            if let kept = models[model] { return kept }
            models[model] = predictor
            return predictor
        }
    }
}
