import HTTPTypes
import Hummingbird
import Synchronization

/// One route of the API: a method and a path template in the OpenAPI document's syntax
/// (`/api/entries/{id}`, `/api/stickers/{id}.png`).
public struct APIRoute: Hashable, Sendable, CustomStringConvertible {
    public let method: HTTPRequest.Method
    public let path: String

    public var description: String { "\(method) \(path)" }

    /// Whether a request path (no query) falls under this route's template: the same number of
    /// segments, literal segments equal, `{name}` parts standing for any non-empty text.
    func matches(_ requestPath: String) -> Bool {
        let want = path.split(separator: "/", omittingEmptySubsequences: false)
        let have = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        guard want.count == have.count else { return false }
        return zip(want, have).allSatisfy { pattern, segment in
            guard let open = pattern.firstIndex(of: "{"), let close = pattern.firstIndex(of: "}") else { return pattern == segment }
            let prefix = pattern[..<open], suffix = pattern[pattern.index(after: close)...]
            return segment.count > prefix.count + suffix.count && segment.hasPrefix(prefix) && segment.hasSuffix(suffix)
        }
    }
}

/// The routes registered so far, kept as they are added: the route-vs-document test lists them, and
/// a request whose path exists under another method is answered 405 with `Allow` from them.
final class RouteTable: Sendable {
    private let routes = Mutex<[APIRoute]>([])

    var all: [APIRoute] { routes.withLock { $0 } }

    func add(_ route: APIRoute) {
        routes.withLock { $0.append(route) }
    }

    /// The methods `path` is answered for (HEAD wherever GET is, as the router adds it), empty when
    /// no route has the path.
    func methods(for path: String) -> [HTTPRequest.Method] {
        var methods = all.filter { $0.matches(path) }.map(\.method)
        if methods.contains(.get) { methods.append(.head) }
        return methods
    }
}

/// A router that records every route added through it in a `RouteTable`, so the table is exactly what
/// the router answers.
struct RecordingRouter: RouterMethods {
    typealias Context = ServerRequestContext

    let router: Router<ServerRequestContext>
    let table: RouteTable

    @discardableResult func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        table.add(APIRoute(method: method, path: path.description))
        router.on(path, method: method, responder: responder)
        return self
    }

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }
}
