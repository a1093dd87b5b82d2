import ArgumentParser
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

/// `$STICKER_MODEL`: the model every command uses in place of the catalog's `cutout.model` (a
/// machine with little memory can keep to u2netp); `--model` still wins.
enum ModelEnvironment {
    static let variable = "STICKER_MODEL"

    /// The model the variable names; nil when it is unset or empty; a usage error when it names none.
    static func model(in environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CutoutModel? {
        guard let name = environment[variable], !name.isEmpty else { return nil }
        guard let model = CutoutModel.named(name) else {
            throw ValidationError("\(variable)='\(name)' names no segmentation model: expected \(CutoutModel.choices)")
        }
        return model
    }
}

extension CatalogOptions {
    /// The model a run uses: `--model`, else `$STICKER_MODEL`, else the catalog's `cutout.model`
    /// (read without creating or migrating the catalog, so a missing model is reported before
    /// anything is written).
    func model(_ options: ModelOptions) async throws -> CutoutModel {
        if let chosen = options.chosen { return chosen }
        if let model = try ModelEnvironment.model() { return model }
        return try await currentSettings().model
    }
}
