import ArgumentParser
import Catalog
import Foundation
import Processing

/// Finding the installed segmentation model, and telling people how to install it when it is not there.
enum SegmentationModel {
    /// Where the model is looked for, for `--help` and the manual pages (generated from the help, so
    /// no path of the machine that built them may appear here).
    static let lookupHelp = """
        The segmentation models (u2net, the default, and u2netp, the fast one; `catalog config set cutout.model`, $STICKER_MODEL or --model choose) are looked for in $STICKER_MODEL_DIR when it is set (only there); else in $XDG_DATA_HOME/sticker-catalog/models (~/.local/share/sticker-catalog/models), then in share/sticker-catalog/models beside the folder of the catalog program (/usr/share/sticker-catalog/models for /usr/bin/catalog, /usr/local/share/... for /usr/local/bin/catalog).
        """

    /// `model` in `folder` (else in the first of ``folders(_:environment:)`` that holds it), running in
    /// `precision`. Missing or damaged: reports where it looked and how to install it, and throws exit 69.
    /// Another model is never taken in its place.
    static func required(
        _ model: CutoutModel, precision: InferencePrecision, in folder: String? = nil, environment: CatalogEnvironment = .current
    ) throws -> any MaskPredictor {
        do throws(ProcessingError) {
            return try load(model, precision: precision, in: folder, environment: environment)
        } catch {
            throw unavailable(error, model: model, looked: folders(folder, environment: environment))
        }
    }

    /// The one model lookup, for every command and `serve`: `model` from `folder` when given, else from
    /// the first of the environment's model folders that holds it, running in `precision`. Missing:
    /// `.segmentationUnavailable` naming every place it looked; damaged: `.invalidModel`.
    static func load(
        _ model: CutoutModel, precision: InferencePrecision, in folder: String?, environment: CatalogEnvironment
    ) throws(ProcessingError) -> any MaskPredictor {
        guard let predictor = try installed(model, precision: precision, in: folder, environment: environment) else {
            let places = folders(folder, environment: environment).map(\.path).joined(separator: ", ")
            throw .segmentationUnavailable("no segmentation model \(model.rawValue); looked in \(places)")
        }
        return predictor
    }

    /// As ``load(_:in:environment:)``, but nil when no folder of the environment holds the model (a
    /// cut-out of a photo with its own transparency needs none); a `folder` named without it is an error.
    static func installed(
        _ model: CutoutModel, precision: InferencePrecision, in folder: String?, environment: CatalogEnvironment
    ) throws(ProcessingError) -> (any MaskPredictor)? {
        if TestHooks.usesCentredPredictor { return CentredEllipsePredictor() }
        if let folder { return try NetworkMaskPredictor.installed(model, in: URL(fileURLWithPath: folder), precision: precision) }
        return try NetworkMaskPredictor.installed(model, among: folders(nil, environment: environment), precision: precision)
    }

    /// Where the model is looked for, in order: `folder` alone when given, else the environment's model
    /// folders, then the models installed with this program.
    static func folders(_ folder: String?, environment: CatalogEnvironment) -> [URL] {
        folder.map { [URL(fileURLWithPath: $0)] } ?? environment.modelFolders(installedFolder: installedFolder)
    }

    /// Reports a missing or damaged model (every place it looked, how to install it) and returns exit 69.
    static func unavailable(_ error: ProcessingError, model: CutoutModel, looked locations: [URL]) -> ExitCode {
        switch error {
        case .invalidModel:
            // The first folder holding both files is the one that was loaded.
            let damaged = NetworkMaskPredictor.folder(holding: model, among: locations) ?? locations[0]
            Diagnostics.report("error: the segmentation model \(model.rawValue) in \(damaged.path) is damaged (\(error.errorDescription ?? error.code)); reinstall it: remove its files from that folder, then run `make model` (or reinstall the sticker-catalog package)")
        default:
            let places = locations.map(\.path).joined(separator: ", ")
            let other = CutoutModel.allCases.filter { $0 != model && NetworkMaskPredictor.folder(holding: $0, among: locations) != nil }
            let hint = other.isEmpty ? "" : "; \(other.map(\.rawValue).joined(separator: ", ")) is installed: choose it with --model \(other[0].rawValue) or `catalog config set cutout.model \(other[0].rawValue)`"
            Diagnostics.report("error: no segmentation model \(model.rawValue) (\(model.graphFile) and \(model.weightsFile)); looked in \(places); install it with `make model` or `make install` in the source tree (the sticker-catalog package carries it too), or with `scripts/install-model.sh DIR` and set STICKER_MODEL_DIR=DIR\(hint)")
        }
        return ExitCode(.unavailable)
    }

    /// The model installed with this program: `PREFIX/share/sticker-catalog/models` for `PREFIX/bin/catalog`
    /// (the executable's real path, links resolved, so a moved or staged install finds its own).
    static let installedFolder: URL? = {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/sticker-catalog/models").standardizedFileURL
    }()
}
