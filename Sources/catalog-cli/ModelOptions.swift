import ArgumentParser
import Catalog
import Foundation
import Processing

/// `--model NAME`: the segmentation model of one run, in place of `$STICKER_MODEL` and of the
/// catalog's `cutout.model`. Stickers made with another model than the catalog's are stale.
struct ModelOptions: ParsableArguments {
    @Option(
        name: .customLong("model"),
        help: ArgumentHelp(
            "The segmentation model for this run: u2net (the stronger) or u2netp (the fast one). Default: $STICKER_MODEL, else the catalog's cutout.model (u2net unless set with `catalog config`).",
            valueName: "name"
        )
    )
    var name: String?

    func validate() throws {
        if let name, CutoutModel.named(name) == nil {
            throw ValidationError("unknown --model '\(name)': expected \(CutoutModel.choices)")
        }
    }

    /// The model this run was told to use, nil when it was not.
    var chosen: CutoutModel? { name.flatMap(CutoutModel.named) }
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
    /// The model a run uses: `--model`, else `$STICKER_MODEL`, else the catalog's `cutout.model`
    /// (read without creating or migrating the catalog, so a missing model is reported before
    /// anything is written).
    func model(_ options: ModelOptions) async throws -> CutoutModel {
        if let chosen = options.chosen { return chosen }
        if let model = try CatalogEnvironment.current.modelOption() { return model }
        return try await currentSettings().model
    }
}
