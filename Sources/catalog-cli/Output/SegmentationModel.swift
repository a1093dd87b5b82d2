import ArgumentParser
import Foundation
import Processing

/// Finding the installed segmentation model, and telling people how to install it when it is not there.
enum SegmentationModel {
    /// Where the model is looked for, for `--help` and the manual pages (generated from the help, so
    /// no path of the machine that built them may appear here).
    static let lookupHelp = """
        The segmentation model (import, reprocess, cutout) is looked for in $STICKER_MODEL_DIR when it is set (only there); else in $XDG_DATA_HOME/sticker-catalog/models (~/.local/share/sticker-catalog/models), then in share/sticker-catalog/models beside the folder of the catalog program (/usr/share/sticker-catalog/models for /usr/bin/catalog, /usr/local/share/... for /usr/local/bin/catalog).
        """

    /// The model in `folder` (else the first of `defaultLocations` that holds one).
    /// Missing or damaged: reports where it looked and how to install it, and throws exit 69.
    static func required(in folder: String? = nil) throws -> any MaskPredictor {
        // Test hook: the conformance tests exercise the decoders over thousands of files; the network
        // would add nothing there but minutes. Documented in the README's development section.
        if ProcessInfo.processInfo.environment["STICKER_TEST_PREDICTOR"] == "centre" { return CentredEllipsePredictor() }
        let locations = folder.map { [URL(fileURLWithPath: $0)] } ?? defaultLocations
        do throws(ProcessingError) {
            guard let predictor = try NetworkMaskPredictor.installed(in: folder.map { URL(fileURLWithPath: $0) }, installedFolder: installedFolder) else {
                throw ProcessingError.segmentationUnavailable("no segmentation model installed")
            }
            return predictor
        } catch {
            throw unavailable(error, looked: locations)
        }
    }

    /// Reports a missing or damaged model (every place it looked, how to install it) and returns exit 69.
    static func unavailable(_ error: ProcessingError, looked locations: [URL]) -> ExitCode {
        switch error {
        case .invalidModel:
            // The first folder holding both files is the one that was loaded.
            let damaged = locations.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("u2netp.bin").path) } ?? locations[0]
            Diagnostics.report("error: the segmentation model in \(damaged.path) is damaged (\(error.errorDescription ?? error.code)); reinstall it: remove that folder, then run `make model` (or reinstall the sticker-catalog package)")
        default:
            let places = locations.map(\.path).joined(separator: ", ")
            Diagnostics.report("error: no segmentation model (u2netp.json and u2netp.bin); looked in \(places); install it with `make model` or `make install` in the source tree (the sticker-catalog package carries it too), or with `scripts/install-model.sh DIR` and set STICKER_MODEL_DIR=DIR")
        }
        return ExitStatus.unavailable
    }

    /// Where the model is looked for when no folder is given, in order.
    static var defaultLocations: [URL] {
        NetworkMaskPredictor.modelDirectories(environment: ProcessInfo.processInfo.environment, installedFolder: installedFolder)
    }

    /// The model installed with this program: `PREFIX/share/sticker-catalog/models` for `PREFIX/bin/catalog`
    /// (the executable's real path, links resolved, so a moved or staged install finds its own).
    static let installedFolder: URL? = {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/sticker-catalog/models").standardizedFileURL
    }()
}
