import Foundation
import Hummingbird

/// Serves the page's embedded files. A URL names a file only by an exact match with an embedded
/// path, so nothing outside them can be reached (a `..`, encoded or not, is refused before the lookup).
/// `index.html` gets the run's token in `<meta name="catalog-token" content="...">`.
struct AssetServer: Sendable {
    let assets: [String: EmbeddedAssets.Asset]
    let token: String

    init(assets: EmbeddedAssets = .shared, token: String) {
        self.assets = assets.files
        self.token = token
    }

    func response(for request: Request) throws(APIError) -> Response {
        guard request.method == .get || request.method == .head else {
            throw APIError(.methodNotAllowed, "method-not-allowed", "the page's files can only be read (GET)")
        }
        let path = try Self.assetPath(request.uri.path)
        guard let asset = assets[path] else { throw APIError.notFound("no file \(path) in the page") }
        var bytes = asset.bytes
        var headers: HTTPFields = [.contentType: asset.contentType]
        if path == "/index.html" {
            bytes = Self.injectingToken(token, into: bytes)
            // The token changes with every run: the page itself is never cached.
            headers[.cacheControl] = "no-store"
        } else {
            headers[.cacheControl] = "no-cache"
        }
        headers[.contentLength] = String(bytes.count)
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The embedded path a URL path names: percent-decoded, `/` and extension-less paths (the page's
    /// own routes) → `/index.html`. Refuses `..`, backslashes, NUL and undecodable text.
    static func assetPath(_ rawPath: String) throws(APIError) -> String {
        guard let decoded = rawPath.removingPercentEncoding, decoded.hasPrefix("/") else {
            throw APIError.badRequest("bad-path", "the path \(rawPath) cannot be read")
        }
        let components = decoded.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains(where: { $0 == ".." || $0 == "." }) || decoded.contains("\\") || decoded.contains("\0")
            || decoded.contains("//")
        {
            throw APIError.notFound("no file \(rawPath) in the page")
        }
        if decoded == "/" || !(components.last ?? "").contains(".") { return "/index.html" }
        return decoded
    }

    /// `html` with the token's meta element just before `</head>` (or at the start when there is none).
    static func injectingToken(_ token: String, into html: Data) -> Data {
        let text = String(decoding: html, as: UTF8.self)
        let meta = "<meta name=\"catalog-token\" content=\"\(token)\">\n"
        if let range = text.range(of: "</head>", options: .caseInsensitive) {
            return Data((text[..<range.lowerBound] + meta + text[range.lowerBound...]).utf8)
        }
        return Data((meta + text).utf8)
    }
}
