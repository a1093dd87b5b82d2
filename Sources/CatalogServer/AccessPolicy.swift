import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// The rules every request passes before a route sees it, against the attacks a local server in a
/// browser invites:
/// - DNS rebinding: the `Host` must name the served host (or, on loopback, another loopback name),
///   and the port it was served on; any other → 403 `wrong-host`.
/// - Cross-site requests: a foreign `Origin` (or `Sec-Fetch-Site: cross-site`) → 403 `foreign-origin`.
/// - Cross-site request forgery: every method but GET/HEAD needs the per-run token in
///   `X-Catalog-Token` (the page has it in `<meta name="catalog-token">`) → 403 `token-required`/`bad-token`.
struct AccessPolicy: Sendable {
    static let tokenHeader = HTTPField.Name("X-Catalog-Token")!

    let token: String
    /// Host names (lower case, IPv6 in brackets) a request may name.
    let hostNames: Set<String>
    /// The port actually listened on, once known (with `--port 0` it is learnt when the server starts).
    let port: ServingPort

    init(host: String, token: String, port: ServingPort) {
        self.token = token
        self.port = port
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host.lowercased())]" : host.lowercased()
        var names: Set<String> = [name]
        if ServerConfiguration.isLoopback(host) { names.formUnion(["localhost", "127.0.0.1", "[::1]"]) }
        hostNames = names
    }

    func check(_ request: Request) throws(APIError) {
        guard let authority = request.head.authority, let host = Self.split(authority), hostNames.contains(host.name),
            host.port == nil || port.value == nil || host.port == port.value
        else {
            throw APIError.forbidden(
                "wrong-host", "this server answers to \(hostNames.sorted().joined(separator: ", ")) only, not \(request.head.authority ?? "a request without Host")"
            )
        }
        if let origin = request.headers[.origin] {
            guard Self.isSameOrigin(origin, hostNames: hostNames, port: self.port.value) else {
                throw APIError.forbidden("foreign-origin", "requests from \(origin) are refused: only the served page may call the API")
            }
        }
        if request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "cross-site" {
            throw APIError.forbidden("foreign-origin", "cross-site requests are refused")
        }
        if request.method != .get && request.method != .head {
            guard let given = request.headers[Self.tokenHeader] else {
                throw APIError.forbidden("token-required", "a change needs the X-Catalog-Token header (the served page carries it)")
            }
            guard Self.constantTimeEqual(given, token) else {
                throw APIError.forbidden("bad-token", "the X-Catalog-Token does not match this run of the server (reload the page)")
            }
        }
    }

    /// `host[:port]` → (lower-cased host, port); nil when malformed.
    static func split(_ authority: String) -> (name: String, port: Int?)? {
        let text = authority.lowercased()
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = String(text[...close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (host, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (host, port)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (text, nil)
        case 2: return Int(parts[1]).map { (String(parts[0]), $0) }
        default: return nil
        }
    }

    static func isSameOrigin(_ origin: String, hostNames: Set<String>, port: Int?) -> Bool {
        guard origin.hasPrefix("http://"), let host = split(String(origin.dropFirst("http://".count))) else { return false }
        return hostNames.contains(host.name) && (port == nil || (host.port ?? 80) == port)
    }

    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8), b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Headers on every answer: the content security policy (no inline script, nothing from another
    /// origin), no sniffing, no framing, no referrer.
    static func addSecurityHeaders(to headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] = "same-origin"
        headers[HTTPField.Name("Cross-Origin-Resource-Policy")!] = "same-origin"
    }

    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
        "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'",
        "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")
}

/// The port the server listens on, set once it is bound.
final class ServingPort: Sendable {
    private let port = Mutex<Int?>(nil)
    init(_ value: Int? = nil) { port.withLock { $0 = value } }
    var value: Int? { port.withLock { $0 } }
    func set(_ value: Int) { port.withLock { $0 = value } }
}
