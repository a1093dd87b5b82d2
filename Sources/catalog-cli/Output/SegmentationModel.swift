import ArgumentParser
import Foundation
import Processing

/// Finding the installed segmentation model, and telling people how to install it when it is not there.
enum SegmentationModel {
    /// The model in `folder` (else the default lookup: $STICKER_MODEL_DIR, then the data folder).
    /// Missing or damaged: reports where it looked and how to install it, and throws exit 69.
    static func required(in folder: String? = nil) throws -> any MaskPredictor {
        // Test hook: the conformance tests exercise the decoders over thousands of files; the network
        // would add nothing there but minutes. Documented in the README's development section.
        if ProcessInfo.processInfo.environment["STICKER_TEST_PREDICTOR"] == "centre" { return CentredEllipsePredictor() }
        let location = folder.map { URL(fileURLWithPath: $0) } ?? NetworkMaskPredictor.modelDirectory(environment: ProcessInfo.processInfo.environment)
        do throws(ProcessingError) {
            guard let predictor = try NetworkMaskPredictor.installed(in: folder.map { URL(fileURLWithPath: $0) }) else {
                throw ProcessingError.segmentationUnavailable("no segmentation model installed")
            }
            return predictor
        } catch {
            throw unavailable(error, looked: location)
        }
    }

    /// Reports a missing or damaged model (where it looked, how to install it) and returns exit 69.
    static func unavailable(_ error: ProcessingError, looked location: URL) -> ExitCode {
        switch error {
        case .invalidModel:
            Diagnostics.report("error: the segmentation model in \(location.path) is damaged (\(error.errorDescription ?? error.code)); reinstall it: remove that folder, then run `make model`")
        default:
            Diagnostics.report("error: no segmentation model (u2netp.json and u2netp.bin) in \(location.path); install it with `make model` in the source checkout, or `scripts/install-model.sh DIR` and set STICKER_MODEL_DIR=DIR")
        }
        return ExitStatus.unavailable
    }

    /// Where the model is looked for when no folder is given.
    static var defaultLocation: URL {
        NetworkMaskPredictor.modelDirectory(environment: ProcessInfo.processInfo.environment)
    }
}
