import Crypto
import Foundation
import Hummingbird
import MultipartKit

/// Saves the photos of a `multipart/form-data` upload under the uploads folder as they stream in,
/// each named by the SHA-256 of its bytes (`<sha256>.<ext>`), so the same photo uploaded twice is one
/// file and the catalog's recorded path stays valid. A file over `maxFileBytes` stops the upload with
/// 413; the files saved before it are kept (they are whole), the partial one is removed.
struct UploadStore: Sendable {
    let directory: URL
    let maxFileBytes: Int

    /// One saved file. JSON: `{"name","path","sha256","bytes"}`.
    struct SavedFile: Encodable, Sendable {
        let name: String
        let path: String
        let sha256: String
        let bytes: Int
    }

    func save(_ request: Request) async throws(APIError) -> [SavedFile] {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data"),
            let boundary = Self.boundary(of: type)
        else {
            throw APIError.badRequest("bad-upload", "send the photos as multipart/form-data (a form with file fields)")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw APIError(.internalServerError, "uploads-folder", "cannot create \(directory.path): \(error.localizedDescription)")
        }
        let receiver = PartReceiver(directory: directory, maxFileBytes: maxFileBytes)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in receiver.header(name, value) }
        parser.onBody = { buffer in receiver.body(&buffer) }
        parser.onPartComplete = { receiver.complete() }
        do {
            for try await buffer in request.body {
                try parser.execute(buffer)
                if let failure = receiver.failure { throw failure }
            }
        } catch let error as APIError {
            receiver.abandon()
            throw error
        } catch {
            receiver.abandon()
            throw APIError.badRequest("bad-upload", "the upload is not valid multipart/form-data: \(error)")
        }
        receiver.abandon()
        if let failure = receiver.failure { throw failure }
        if receiver.saved.isEmpty { throw APIError.badRequest("bad-upload", "the upload holds no file") }
        return receiver.saved
    }

    static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.isEmpty || value.count > 200 ? nil : value
            }
        }
        return nil
    }

    /// A file extension worth keeping from an uploaded name: short, letters and digits only.
    static func fileExtension(of name: String) -> String {
        let ext = (name as NSString).pathExtension.lowercased()
        return !ext.isEmpty && ext.count <= 5 && ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) ? "." + ext : ""
    }
}

/// The parser's callbacks: one part at a time into a temporary file, hashed as it is written.
/// Used by one task only (the request's), through the parser's synchronous callbacks.
private final class PartReceiver {
    let directory: URL
    let maxFileBytes: Int
    var saved: [UploadStore.SavedFile] = []
    var failure: APIError?

    private var headers: [String: String] = [:]
    private var file: FileHandle?
    private var temporary: URL?
    private var hasher = SHA256()
    private var size = 0
    private var fileName: String?

    init(directory: URL, maxFileBytes: Int) {
        self.directory = directory
        self.maxFileBytes = maxFileBytes
    }

    func header(_ name: String, _ value: String) {
        headers[name.lowercased()] = value
    }

    func body(_ buffer: inout ByteBuffer) {
        guard failure == nil else { return }
        if file == nil, fileName == nil {
            guard let name = Self.fileName(headers["content-disposition"]) else { return }  // a plain form field
            fileName = name
            let url = directory.appendingPathComponent(".incoming-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: url.path, contents: nil), let handle = try? FileHandle(forWritingTo: url) else {
                failure = APIError(.internalServerError, "uploads-folder", "cannot write into \(directory.path)")
                return
            }
            temporary = url
            file = handle
        }
        guard let file else { return }
        size += buffer.readableBytes
        if size > maxFileBytes {
            failure = APIError(
                .contentTooLarge, "too-large", "\(fileName ?? "a file") is over the upload limit of \(maxFileBytes) bytes (--max-upload)"
            )
            return
        }
        let bytes = Data(buffer.readableBytesView)
        hasher.update(data: bytes)
        do {
            try file.write(contentsOf: bytes)
        } catch {
            failure = APIError(.internalServerError, "uploads-folder", "cannot write into \(directory.path): \(error.localizedDescription)")
        }
    }

    func complete() {
        defer {
            headers = [:]
            fileName = nil
            size = 0
            hasher = SHA256()
        }
        if fileName == nil, let name = Self.fileName(headers["content-disposition"]), failure == nil {
            // An empty file: nothing to import, but say so.
            failure = APIError.badRequest("bad-upload", "\(name) is empty")
            return
        }
        guard failure == nil, let file, let temporary, let fileName else { return }
        try? file.close()
        self.file = nil
        self.temporary = nil
        let sha256 = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        let destination = directory.appendingPathComponent(sha256 + UploadStore.fileExtension(of: fileName))
        if FileManager.default.fileExists(atPath: destination.path) {
            try? FileManager.default.removeItem(at: temporary)
        } else {
            do {
                try FileManager.default.moveItem(at: temporary, to: destination)
            } catch {
                failure = APIError(.internalServerError, "uploads-folder", "cannot save \(fileName): \(error.localizedDescription)")
                return
            }
        }
        saved.append(.init(name: fileName, path: destination.path, sha256: sha256, bytes: size))
    }

    /// Removes a partly written file.
    func abandon() {
        try? file?.close()
        file = nil
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
        temporary = nil
    }

    /// The `filename` of a `Content-Disposition: form-data; name="x"; filename="y.jpg"` header: its last
    /// path component only, nil when there is none.
    static func fileName(_ disposition: String?) -> String? {
        guard let disposition else { return nil }
        for parameter in disposition.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "filename" {
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                let last = value.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
                return last.isEmpty ? "upload" : last
            }
        }
        return nil
    }
}
