import Foundation
import Hummingbird

/// JSON responses and request bodies. Responses are encoded as the CLI's `--json` prints them
/// (sorted keys, pretty-printed, unescaped slashes, a final newline), so the bytes are the same.
enum JSONBody {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as a JSON response, not cached (the catalog changes under it).
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        var bytes: Data
        do {
            bytes = try encoder().encode(value)
        } catch {
            bytes = Data(#"{"error":{"code":"internal","message":"the answer could not be encoded"}}"#.utf8)
            return Response(
                status: .internalServerError,
                headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
            )
        }
        bytes.append(UInt8(ascii: "\n"))
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    /// The request's JSON body as `T`: 413 over the context's limit, 400 when it is not that JSON.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: ServerRequestContext) async throws -> T {
        guard let value = try await decodeIfPresent(type, from: request, context: context) else {
            throw APIError.badRequest("bad-json", "the request needs a JSON body")
        }
        return value
    }

    /// Like `decode`, but nil for an empty body (where the body is optional).
    static func decodeIfPresent<T: Decodable>(_ type: T.Type, from request: Request, context: ServerRequestContext) async throws -> T? {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: context.maxUploadSize)
        } catch {
            throw APIError(.contentTooLarge, "too-large", "the request body is over \(context.maxUploadSize) bytes")
        }
        if buffer.readableBytes == 0 { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIError.badRequest("bad-json", "the JSON body lacks \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context) {
            throw APIError.badRequest("bad-json", "the JSON body has the wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch {
            throw APIError.badRequest("bad-json", "the request body is not the JSON expected")
        }
    }
}
