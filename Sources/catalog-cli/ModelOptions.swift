import ArgumentParser
import Catalog
import Foundation
import Processing

/// `--model NAME` and `--precision auto|fp32|int8`: the segmentation model of one run and the arithmetic
/// it runs in, in place of `$STICKER_MODEL` and of the catalog's `cutout.model` and `cutout.precision`.
/// Stickers made with another model or precision than the catalog's are stale.
struct ModelOptions: ParsableArguments {
    @Option(
        name: .customLong("model"),
        help: ArgumentHelp(
            "The segmentation model for this run: u2net (the stronger) or u2netp (the fast one). Default: $STICKER_MODEL, else the catalog's cutout.model (u2net unless set with `catalog config`).",
            valueName: "name"
        )
    )
    var name: String?

    @Option(
        name: .customLong("precision"),
        help: ArgumentHelp(
            "The arithmetic of the cut-out network: \(CatalogSetting.precisionChoices). Default: the catalog's cutout.precision (auto unless set with `catalog config`).",
            valueName: "precision"
        )
    )
    var precisionName: String?

    func validate() throws {
        if let name, CutoutModel.named(name) == nil {
            throw ValidationError("unknown --model '\(name)': expected \(CutoutModel.choices)")
        }
        try Self.validatePrecision(precisionName)
    }

    /// A `--precision` that names no precision is a usage error (exit 64) naming the ones there are.
    static func validatePrecision(_ name: String?) throws {
        if let name, PrecisionSetting.named(name) == nil {
            throw ValidationError("unknown --precision '\(name)': expected \(PrecisionSetting.choices)")
        }
    }

    /// The model this run was told to use, nil when it was not.
    var chosen: CutoutModel? { name.flatMap(CutoutModel.named) }

    /// The precision this run was told to use, resolved on this machine; nil when it was not told.
    var chosenPrecision: InferencePrecision? { precisionName.flatMap(PrecisionSetting.named)?.resolved }
}

/// The cut-out network a run uses: which model, in which arithmetic (both as this machine runs them).
struct CutoutChoice {
    var model: CutoutModel
    var precision: InferencePrecision

    /// `settings` with this run's model and precision, as every sticker of the run records them.
    func applied(to settings: StickerSettings) -> StickerSettings {
        var settings = settings
        settings.model = model
        settings.precision = precision
        return settings
    }

    /// The network, or exit 69 with where it was looked for (``SegmentationModel/required(_:precision:in:environment:)``).
    func required() throws -> any MaskPredictor {
        try SegmentationModel.required(model, precision: precision)
    }
}

extension CatalogEnvironment {
    /// `$STICKER_MODEL` (``CatalogEnvironment/chosenModel()``), a malformed value a usage error.
    func modelOption() throws -> CutoutModel? {
        do {
            return try chosenModel()
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension CatalogOptions {
    /// The model and precision a run uses: `--model`, else `$STICKER_MODEL`, else the catalog's
    /// `cutout.model`; `--precision`, else the catalog's `cutout.precision` (`auto` resolved here). The
    /// catalog is read only when an option leaves it to the catalog, without creating or migrating it, so
    /// a missing model is reported before anything is written.
    func cutout(_ options: ModelOptions) async throws -> CutoutChoice {
        let model = try options.chosen ?? CatalogEnvironment.current.modelOption()
        let precision = options.chosenPrecision
        if let model, let precision { return CutoutChoice(model: model, precision: precision) }
        if let model {
            // Read for the precision only. A catalog another process is creating this moment (an empty
            // file) or one not yet migrated cannot be read yet; it holds no precision of its own then,
            // and the command that opens it for writing reports anything else wrong with it.
            let stored = try? await currentSettings()
            return CutoutChoice(model: model, precision: stored?.precision ?? PrecisionSetting.default.resolved)
        }
        let settings = try await currentSettings()
        return CutoutChoice(model: model ?? settings.model, precision: precision ?? settings.precision)
    }
}
