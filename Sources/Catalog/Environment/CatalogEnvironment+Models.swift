import Foundation
import Processing

extension CatalogEnvironment {
    /// `$STICKER_MODEL`: the model every command uses in place of the catalog's `cutout.model` (a
    /// machine with little memory can keep to u2netp); nil when unset; an error when it names none.
    public func chosenModel() throws(EnvironmentError) -> CutoutModel? {
        guard let name = self["STICKER_MODEL"] else { return nil }
        guard let model = CutoutModel.named(name) else {
            throw EnvironmentError(description: "STICKER_MODEL='\(name)' names no segmentation model: expected \(CutoutModel.choices)")
        }
        return model
    }

    /// Where the models are looked for, in order: `$STICKER_MODEL_DIR` alone when it is set (an explicit
    /// choice is never second-guessed); else the user's data folder (``modelInstallFolder``), then
    /// `installedFolder`, the models installed with the program (`make install`, the package).
    public func modelFolders(installedFolder: URL?) -> [URL] {
        if let explicit = self["STICKER_MODEL_DIR"] { return [URL(fileURLWithPath: explicit)] }
        return [modelInstallFolder] + (installedFolder.map { [$0] } ?? [])
    }

    /// Where `make model` puts the models: `$STICKER_MODEL_DIR`, else `$XDG_DATA_HOME/sticker-catalog/models`
    /// (~/.local/share/sticker-catalog/models).
    public var modelInstallFolder: URL {
        self["STICKER_MODEL_DIR"].map { URL(fileURLWithPath: $0) } ?? dataURL("models")
    }
}
