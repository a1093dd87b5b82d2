import Catalog
import Foundation
import Hummingbird

/// A refused or failed request, answered as `{"error": {"code", "message"}}` with its status: never
/// an HTML page. `code` is a stable word for scripts; `message` is for people.
public struct APIError: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response()
    }

    /// The JSON response.
    public func response() -> Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String
                let message: String
            }
            let error: Detail
        }
        return JSONBody.response(Body(error: .init(code: code, message: message)), status: status)
    }

    static func badRequest(_ code: String, _ message: String) -> APIError { APIError(.badRequest, code, message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not-found", message) }
    static func forbidden(_ code: String, _ message: String) -> APIError { APIError(.forbidden, code, message) }
    /// A change that arrives or completes while the server stops: refused, so nothing accepted is left undone.
    static let stopping = APIError(.serviceUnavailable, "stopping", "the server is stopping; nothing was changed")

    /// The answer for an error a route did not expect: a 500 that names it, without internals.
    static func unexpected(_ error: any Error) -> APIError {
        APIError(.internalServerError, "internal", "the server failed: \(error.localizedDescription)")
    }
}

extension APIError {
    /// A catalog failure: busy → 409, an unknown entry → 404, anything else → 500.
    init(_ error: CatalogError) {
        let message = error.errorDescription ?? "\(error)"
        switch error {
        case .busy: self.init(.conflict, "busy", message)
        case .entryNotFound: self.init(.notFound, "not-found", message)
        case .readOnly: self.init(.forbidden, "read-only", message)
        default: self.init(.internalServerError, "catalog", message)
        }
    }

    /// A pack failure: a bad value → 400, an unknown pack → 404, a clash with what is there → 409, ids in the
    /// body that are no entries → 422: a 404 would say the pack itself (the request's target) is gone.
    init(_ error: PackError) {
        let message = error.errorDescription ?? "\(error)"
        switch error {
        case .invalidName: self.init(.badRequest, "invalid-name", message)
        case .invalidValue: self.init(.badRequest, "invalid-value", message)
        case .invalidPosition: self.init(.badRequest, "invalid-position", message)
        case .notFound: self.init(.notFound, "not-found", message)
        case .unknownEntries: self.init(.unprocessableContent, "unknown-entries", message)
        case .alreadyExists: self.init(.conflict, "already-exists", message)
        case .notStickers: self.init(.conflict, "not-stickers", message)
        case .notInPack: self.init(.conflict, "not-in-pack", message)
        case .missingStickers: self.init(.conflict, "missing-stickers", message)
        case .catalog(let error): self.init(error)
        }
    }

    /// An export failure: the pack cannot be exported as it is → 409; writing failed → 500.
    init(_ error: ExportError) {
        let message = error.errorDescription ?? "\(error)"
        switch error {
        case .pack(let error): self.init(error)
        case .emptyPack: self.init(.conflict, "empty-pack", message)
        case .tooFewStickers, .tooFewInSet: self.init(.conflict, "too-few-stickers", message)
        case .titleTooLong: self.init(.conflict, "title-too-long", message)
        case .doesNotFit: self.init(.conflict, "does-not-fit", message)
        case .unreadableSticker: self.init(.internalServerError, "unreadable-sticker", message)
        case .outputExists, .unsafePath, .io: self.init(.internalServerError, "export-failed", message)
        case .cancelled: self.init(.internalServerError, "cancelled", message)
        }
    }
}
