import Catalog
import Crypto
import Foundation
import Hummingbird

extension CatalogAPI {
    /// Bytes written per chunk when a body is streamed.
    static let chunkSize = 64 * 1024

    func registerMedia(on router: RecordingRouter) {
        // The sticker PNG. Its ETag changes when the sticker is made again, so the browser may keep it
        // and ask again cheaply (`no-cache` + `If-None-Match` → 304).
        router.get("/api/stickers/{id}.png") { request, context in
            let id = try context.entryId()
            return try await stickerImage(id: id, request: request, type: "image/png") { () async throws(APIError) in
                guard let png = try await catalog({ () async throws(CatalogError) in try await repository.stickerPNG(id: id) }) else {
                    throw APIError.notFound("entry \(id) has no sticker")
                }
                return png
            }
        }

        // An animated sticker's moving form (animated WebP, which every current browser plays); the
        // PNG above is its first frame. Cached as the PNG is.
        router.get("/api/stickers/{id}.webp") { request, context in
            let id = try context.entryId()
            return try await stickerImage(id: id, request: request, type: "image/webp") { () async throws(APIError) in
                guard let animation = try await catalog({ () async throws(CatalogError) in try await repository.animation(id: id) }) else {
                    throw APIError(.notFound, "not-animated", "entry \(id)'s sticker is a still: its image is /api/stickers/\(id).png")
                }
                return animation.webp
            }
        }

        // The source photo, upright and scaled down.
        router.get("/api/photos/{id}/preview.jpg") { request, context in
            let id = try context.entryId()
            let size = try request.integer("size", in: SourcePreview.sizes, default: SourcePreview.defaultSize)
            guard let path = try await catalog({ () async throws(CatalogError) in try await repository.sourcePath(id: id) }) else {
                throw APIError.notFound("no entry with id \(id)")
            }
            let jpeg: [UInt8]
            do throws(SourcePreview.Failure) {
                jpeg = try await SourcePreview.jpeg(path: path, longSide: size)
            } catch {
                switch error {
                case .sourceMissing(let path):
                    throw APIError(.notFound, "source-missing", "the source photo of entry \(id) is not at \(path) any more (moved or deleted)")
                case .unreadable(let path, let reason):
                    throw APIError(.notFound, "source-unreadable", "the source photo of entry \(id) at \(path) cannot be shown: \(reason)")
                }
            }
            return Response(
                status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, max-age=60"], body: Self.streamed(jpeg)
            )
        }
    }

    /// One of entry `id`'s sticker images, of media `type`: its ETag follows the sticker's version (and
    /// the type), so an unchanged one is answered 304 without reading `bytes`.
    func stickerImage(
        id: Int64, request: Request, type: String, bytes: () async throws(APIError) -> [UInt8]
    ) async throws(APIError) -> Response {
        guard let version = try await catalog({ () async throws(CatalogError) in try await repository.stickerVersion(id: id) }) else {
            throw APIError.notFound("entry \(id) has no sticker (no such entry, or its processing failed)")
        }
        // The PNG keeps the tag it always had; other types add theirs, so that two images of one sticker differ.
        let tagged = type == "image/png" ? version : type + ":" + version
        let etag = "\"" + SHA256.hash(data: Data(tagged.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "private, no-cache"]
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
            return Response(status: .notModified, headers: headers)
        }
        let body = try await bytes()
        headers[.contentType] = type
        return Response(status: .ok, headers: headers, body: Self.streamed(body))
    }

    /// `bytes` written in chunks, with its length announced.
    static func streamed(_ bytes: [UInt8]) -> ResponseBody {
        ResponseBody(contentLength: bytes.count) { writer in
            var start = 0
            while start < bytes.count {
                let end = min(start + chunkSize, bytes.count)
                try await writer.write(ByteBuffer(bytes: bytes[start..<end]))
                start = end
            }
            try await writer.finish(nil)
        }
    }

    /// The file at `url` read and written a chunk at a time; `done` runs when it is sent (or fails).
    static func streamedFile(_ url: URL, done: @escaping @Sendable () -> Void) throws -> ResponseBody {
        let handle = try FileHandle(forReadingFrom: url)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let length = (attributes[.size] as? NSNumber)?.intValue
        return ResponseBody(contentLength: length) { writer in
            defer {
                try? handle.close()
                done()
            }
            while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
    }
}
