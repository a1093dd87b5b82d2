import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: applies the access policy, serves the page's files for every path
/// outside `/api/`, turns every failure into the JSON error shape (never an HTML page, never a
/// crash), and adds the security headers to every answer.
struct RequestGuard: RouterMiddleware {
    typealias Context = ServerRequestContext

    let policy: AccessPolicy
    let assets: AssetServer
    let stopping: StoppingFlag
    /// The API's routes, for a 405 with `Allow` when a path is answered under other methods only.
    let routes: RouteTable
    /// The most a request body may declare: the uploads folder's free space for an upload, 1 MB for the rest.
    let bodyLimit: @Sendable (Request) -> Int64

    func handle(
        _ request: Request, context: ServerRequestContext, next: (Request, ServerRequestContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var response: Response
        do {
            try policy.check(request)
            if request.method != .get && request.method != .head && stopping.isSet { throw APIError.stopping }
            if let declared = request.headers[.contentLength].flatMap({ Int64($0) }) {
                let limit = bodyLimit(request)
                if declared > limit {
                    // Refused before a byte of the body is read; the connection is closed rather than drained.
                    throw APIError(.contentTooLarge, "too-large", "the request declares \(declared) bytes, more than the \(limit) this route takes")
                }
            }
            let path = request.uri.path
            if path == "/api" || path.hasPrefix("/api/") {
                response = try await next(request, context)
            } else {
                response = try assets.response(for: request)
            }
        } catch let error as APIError {
            response = error.response()
        } catch let error as HTTPError {
            response = refusal(error, for: request)
        } catch {
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            response = APIError.unexpected(error).response()
        }
        // An answer sent before the body was read whole (a refusal) closes the connection instead of draining it.
        if response.status == .contentTooLarge || response.status == .serviceUnavailable { response.headers[.connection] = "close" }
        AccessPolicy.addSecurityHeaders(to: &response.headers)
        // The time the server spent on the answer (before a streamed body is sent), for the browser's
        // developer tools and the benchmark.
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        response.headers[HTTPField.Name("Server-Timing")!] = "app;dur=\((milliseconds * 1000).rounded() / 1000)"
        return response
    }

    /// The router's own refusals as JSON errors: a path answered under other methods only (405, with
    /// `Allow`), no such route (404), a body over the limit (413), ...
    func refusal(_ error: HTTPError, for request: Request) -> Response {
        let allowed = routes.methods(for: request.uri.path)
        if error.status == .notFound && !allowed.isEmpty && !allowed.contains(request.method) {
            let methods = allowed.map(\.rawValue).joined(separator: ", ")
            var response = APIError(.methodNotAllowed, "method-not-allowed", "\(request.uri.path) takes \(methods), not \(request.method)").response()
            response.headers[.allow] = methods
            return response
        }
        let code = error.status == .notFound ? "not-found" : error.status == .contentTooLarge ? "too-large" : "http-\(error.status.code)"
        let message = error.status == .notFound ? "no API route \(request.method) \(request.uri.path)" : (error.body ?? error.status.reasonPhrase)
        return APIError(error.status, code, message).response()
    }
}
