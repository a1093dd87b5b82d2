import Crypto
import Foundation
import Hummingbird
import MultipartKit

/// Saves the photos of a `multipart/form-data` upload under the uploads folder as they stream in,
/// each named by the SHA-256 of its bytes (`<sha256>.<ext>`), so the same photo uploaded twice is one
/// file and the catalog's recorded path stays valid. An upload is kept whole or not at all: the parts
/// stream into `.incoming-*` files, which take their names only once the whole request has arrived;
/// a file over `maxFileBytes` (413), a malformed body or a request cut off removes every one of them.
struct UploadStore: Sendable {
    let directory: URL
    let maxFileBytes: Int

    /// One saved file. JSON: `{"name","path","sha256","bytes"}`.
    struct SavedFile: Encodable, Sendable {
        let name: String
        let path: String
        let sha256: String
        let bytes: Int
        /// Made by this upload (not the same photo uploaded before): what taking the upload back removes.
        var created = false

        private enum CodingKeys: String, CodingKey { case name, path, sha256, bytes }
    }

    /// Takes back an upload that will not be imported (the server is stopping): removes the files it made.
    static func discard(_ files: [SavedFile]) {
        for file in files where file.created { try? FileManager.default.removeItem(atPath: file.path) }
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
        if let failure = receiver.failure {
            receiver.abandon()
            throw failure
        }
        if receiver.pending.isEmpty {
            receiver.abandon()
            throw APIError.badRequest("bad-upload", "the upload holds no file")
        }
        return try receiver.commit()
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
    /// Whole parts, still under their `.incoming-*` names until the request has arrived whole.
    var pending: [(temporary: URL, file: UploadStore.SavedFile)] = []
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
        pending.append((temporary, .init(name: fileName, path: destination.path, sha256: sha256, bytes: size)))
    }

    /// The whole upload has arrived: each part takes its name (a photo uploaded before is already there).
    func commit() throws(APIError) -> [UploadStore.SavedFile] {
        var saved: [UploadStore.SavedFile] = []
        for (temporary, var file) in pending {
            if FileManager.default.fileExists(atPath: file.path) {
                try? FileManager.default.removeItem(at: temporary)
            } else {
                do {
                    try FileManager.default.moveItem(at: temporary, to: URL(fileURLWithPath: file.path))
                    file.created = true
                } catch {
                    UploadStore.discard(saved)
                    pending.removeAll { $0.temporary == temporary }
                    abandon()
                    throw APIError(.internalServerError, "uploads-folder", "cannot save \(file.name): \(error.localizedDescription)")
                }
            }
            saved.append(file)
            pending.removeAll { $0.temporary == temporary }
        }
        return saved
    }

    /// Removes the partly written file and every whole part not yet named: the upload is not kept.
    func abandon() {
        try? file?.close()
        file = nil
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
        temporary = nil
        for part in pending { try? FileManager.default.removeItem(at: part.temporary) }
        pending = []
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

extension UploadStore {
    /// The bytes free for an unprivileged writer on the file system of `directory` (or of its nearest
    /// existing parent): no upload larger than that can be kept whole.
    static func freeSpace(at directory: URL) -> Int64 {
        var url = directory
        var info = statvfs()
        while statvfs(url.path, &info) != 0 {
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return .max }
            url = parent
        }
        let (bytes, overflow) = Int64(info.f_bavail).multipliedReportingOverflow(by: Int64(info.f_frsize))
        return overflow ? .max : bytes
    }
}
