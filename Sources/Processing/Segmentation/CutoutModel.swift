/// The segmentation models the cut-out can run, by the name users give them (`cutout.model`,
/// `--model`). Both are U²-Net (Apache-2.0), converted once into the catalog's own graph format
/// (`NAME.json` and `NAME.bin` in a model folder): u2net is rembg's default, 176 MB and about
/// three times the multiply-adds; u2netp is the 4.7 MB portable version, the fast one.
public enum CutoutModel: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case u2net
    case u2netp

    /// What a new catalog cuts out with.
    public static let `default` = CutoutModel.u2net
    /// What stickers recorded before the model became a setting were made with.
    public static let legacy = CutoutModel.u2netp

    /// The graph file's name in a model folder.
    public var graphFile: String { rawValue + ".json" }
    /// The weights file's name in a model folder.
    public var weightsFile: String { rawValue + ".bin" }

    /// One line for help and `config list`.
    public var summary: String {
        switch self {
        case .u2net: "the stronger model (176 MB, the default)"
        case .u2netp: "the fast, small model (4.7 MB)"
        }
    }

    /// The model named `name`, or why there is none.
    public static func named(_ name: String) -> CutoutModel? { CutoutModel(rawValue: name) }

    /// "u2net or u2netp", for messages.
    public static var choices: String { allCases.map(\.rawValue).joined(separator: " or ") }
}
