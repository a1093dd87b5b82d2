import Foundation

/// The OpenAPI document of the API (`API/openapi.yaml` in the source tree), carried inside the binary
/// by the EmbedWebAssets plugin and served at `/api/openapi.yaml`. The route-vs-document test keeps it
/// and the routes in step.
enum APIDocument {
    static let yaml: Data = EmbeddedAPIFiles.base64["/openapi.yaml"].flatMap { Data(base64Encoded: $0.base64) } ?? Data()
}
