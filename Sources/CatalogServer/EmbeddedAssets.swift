import Foundation

/// The page's files as bytes, decoded once from the generated `EmbeddedWebAssets`.
public struct EmbeddedAssets: Sendable {
    /// One embedded file.
    public struct Asset: Sendable {
        public let contentType: String
        public let bytes: Data
    }

    public let files: [String: Asset]

    public static let shared = EmbeddedAssets(
        files: EmbeddedWebAssets.base64.reduce(into: [:]) { result, element in
            result[element.key] = Asset(contentType: element.value.contentType, bytes: Data(base64Encoded: element.value.base64) ?? Data())
        }
    )
}
