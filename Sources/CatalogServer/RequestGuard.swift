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

    func handle(
        _ request: Request, context: ServerRequestContext, next: (Request, ServerRequestContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var response: Response
        do {
            try policy.check(request)
            let path = request.uri.path
            if path == "/api" || path.hasPrefix("/api/") {
                response = try await next(request, context)
            } else {
                response = try assets.response(for: request)
            }
        } catch let error as APIError {
            response = error.response()
        } catch let error as HTTPError {
            // The router's own refusals: no such route (404), a body over the limit (413), ...
            let code = error.status == .notFound ? "not-found" : error.status == .contentTooLarge ? "too-large" : "http-\(error.status.code)"
            let message = error.status == .notFound ? "no API route \(request.method) \(request.uri.path)" : (error.body ?? error.status.reasonPhrase)
            response = APIError(error.status, code, message).response()
        } catch {
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            response = APIError.unexpected(error).response()
        }
        AccessPolicy.addSecurityHeaders(to: &response.headers)
        // The time the server spent on the answer (before a streamed body is sent), for the browser's
        // developer tools and the benchmark.
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        response.headers[HTTPField.Name("Server-Timing")!] = "app;dur=\((milliseconds * 1000).rounded() / 1000)"
        return response
    }
}
