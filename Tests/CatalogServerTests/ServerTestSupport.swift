import Catalog
import CatalogServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Processing
import SampleImages
import Testing

/// The token every test server runs with.
let testToken = "test-token-0123456789abcdef"

/// A catalog made for the API tests: the demo photos (small) imported with the centred-ellipse
/// cut-out, plus one file that is not an image (a failed entry), in a folder removed afterwards.
struct ServerFixture: Sendable {
    let directory: URL
    let repository: any CatalogStore
    let server: CatalogServer
    /// The ids of the entries with a sticker, and of the failed one.
    let stickerIds: [Int64]
    let failedId: Int64

    var catalogURL: URL { directory.appending(path: "catalog.sqlite") }
    var photosDirectory: URL { directory.appending(path: "photos") }
    var uploadsDirectory: URL { directory.appending(path: "uploads") }

    /// The application, as `catalog serve` builds it (port 0 for live tests).
    func application() -> some ApplicationProtocol {
        server.application()
    }

    static func make(maxUploadBytes: Int = ServerConfiguration.defaultMaxUploadBytes) async throws -> ServerFixture {
        let directory = FileManager.default.temporaryDirectory.appending(path: "catalog-server-tests-\(UUID().uuidString)")
        let photos = directory.appending(path: "photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for photo in try SamplePhotos.demo(width: 320, height: 240) {
            try Data(photo.bytes).write(to: photos.appending(path: photo.name))
        }
        try Data("not an image".utf8).write(to: photos.appending(path: "broken.jpg"))
        let repository = try SQLiteCatalogStore(url: directory.appending(path: "catalog.sqlite"), access: .readWrite)
        let importer = Importer(repository: repository, options: ImportOptions(jobs: 2, predictor: CentredEllipsePredictor()))
        _ = try await importer.run([photos.path]) { _ in }
        let entries = try repository.entries(.all)
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, maxUploadBytes: maxUploadBytes,
            uploadsDirectory: directory.appending(path: "uploads"), token: testToken, jobs: 2,
            makePredictor: { _, _ in CentredEllipsePredictor() }
        )
        return ServerFixture(
            directory: directory, repository: repository,
            server: CatalogServer(repository: repository, configuration: configuration),
            stickerIds: entries.filter { $0.status == .ok }.map(\.id),
            failedId: entries.first { $0.status == .failed }?.id ?? 0
        )
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` against a fresh fixture through Hummingbird's router test client.
func withServer<T: Sendable>(
    _ setup: TestingSetup = .router, maxUploadBytes: Int = ServerConfiguration.defaultMaxUploadBytes,
    _ body: @escaping @Sendable (ServerFixture, any TestClientProtocol) async throws -> T
) async throws -> T {
    let fixture = try await ServerFixture.make(maxUploadBytes: maxUploadBytes)
    defer { fixture.remove() }
    return try await fixture.application().test(setup) { client in
        try await body(fixture, client)
    }
}

/// Headers of a request from the served page: same origin, with the token.
func pageHeaders(json: Bool = true) -> HTTPFields {
    var headers: HTTPFields = [HTTPField.Name("X-Catalog-Token")!: testToken, .origin: "http://localhost"]
    if json { headers[.contentType] = "application/json" }
    return headers
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The body as a JSON object or array.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// The `error.code` of a JSON error body.
    var errorCode: String? {
        ((json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
    }
}

extension String {
    var buffer: ByteBuffer { ByteBuffer(string: self) }
}
