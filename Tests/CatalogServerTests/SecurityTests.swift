import CatalogServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@Suite("API: token, Origin, Host, paths, headers", .timeLimit(.minutes(15)))
struct SecurityTests {
    @Test func changesNeedTheToken() async throws {
        try await withServer { _, client in
            let body = #"{"name":"mine"}"#.buffer
            try await client.execute(uri: "/api/packs", method: .post, headers: [.contentType: "application/json"], body: body) { response in
                #expect(response.status == .forbidden)
                #expect(response.errorCode == "token-required")
            }
            var wrong = pageHeaders()
            wrong[HTTPField.Name("X-Catalog-Token")!] = "guess"
            try await client.execute(uri: "/api/packs", method: .post, headers: wrong, body: body) { response in
                #expect(response.status == .forbidden)
                #expect(response.errorCode == "bad-token")
            }
            for method in [HTTPRequest.Method.put, .patch, .delete] {
                try await client.execute(uri: "/api/settings", method: method, body: "{}".buffer) { response in
                    #expect(response.status == .forbidden, "\(method)")
                }
            }
            try await client.execute(uri: "/api/packs", method: .post, headers: pageHeaders(), body: body) { response in
                #expect(response.status == .created)
            }
        }
    }

    @Test func theServedPageCarriesTheToken() async throws {
        try await withServer { _, client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.text.contains("<meta name=\"catalog-token\" content=\"\(testToken)\">"))
                #expect(response.headers[.cacheControl] == "no-store")
            }
        }
    }

    @Test func aForeignOriginIsRefused() async throws {
        try await withServer { _, client in
            for origin in ["http://evil.example", "http://localhost.evil.example", "null", "https://localhost", "http://127.0.0.1.evil.example"] {
                try await client.execute(uri: "/api/entries", method: .get, headers: [.origin: origin]) { response in
                    #expect(response.status == .forbidden, "\(origin)")
                    #expect(response.errorCode == "foreign-origin", "\(origin)")
                }
                var headers = pageHeaders()
                headers[.origin] = origin
                try await client.execute(uri: "/api/packs", method: .post, headers: headers, body: #"{"name":"x"}"#.buffer) { response in
                    #expect(response.status == .forbidden, "\(origin)")
                }
            }
            try await client.execute(uri: "/api/entries", method: .get, headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]) { response in
                #expect(response.status == .forbidden)
            }
            for origin in ["http://localhost", "http://127.0.0.1", "http://[::1]"] {
                try await client.execute(uri: "/api/entries", method: .get, headers: [.origin: origin]) { response in
                    #expect(response.status == .ok, "\(origin)")
                }
            }
        }
    }

    /// DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 sends `Host: evil.example`.
    ///
    /// Requests go through a raw client with a long read timeout: the server answers from Swift's shared
    /// pool, which other suites' blocking waits can hold for minutes on two cores, and a 15 s timeout then
    /// failed the test although the server was right.
    @Test func aForeignHostIsRefused() async throws {
        try await withServer(.live) { _, client in
            let port = try #require(client.port)
            let patient = TestClient.Configuration(timeout: .seconds(600))
            let first = try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: patient) { raw in
                try await raw.execute(TestClient.Request("/api/entries", method: .get, authority: "127.0.0.1:\(port)"))
            }
            #expect(first.status == .ok)
            for authority in ["evil.example:\(port)", "evil.example", "127.0.0.1:\(port + 1)", "localhost.evil.example:\(port)"] {
                let response = try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: patient) { raw in
                    try await raw.execute(TestClient.Request("/api/entries", method: .get, authority: authority))
                }
                #expect(response.status == .forbidden, "\(authority)")
                #expect(String(buffer: response.body ?? ByteBuffer()).contains("wrong-host"), "\(authority)")
            }
            for authority in ["localhost:\(port)", "127.0.0.1:\(port)"] {
                let response = try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: patient) { raw in
                    try await raw.execute(TestClient.Request("/", method: .get, authority: authority))
                }
                #expect(response.status == .ok, "\(authority)")
            }
        }
    }

    @Test func noURLReachesOutsideTheEmbeddedFiles() async throws {
        try await withServer { _, client in
            let attempts = [
                "/../Package.swift", "/%2e%2e/Package.swift", "/%2E%2E%2FPackage.swift", "/..%2fPackage.swift",
                "/%252e%252e/Package.swift", "/..\\Package.swift", "/%5c..%5cPackage.swift", "/./index.html",
                "/index.html%00.png", "//etc/passwd", "/%2fetc%2fpasswd.txt", "/etc/passwd.txt", "/Web/index.html",
                "/api/../Package.swift", "/api/%2e%2e/Package.swift", "/nosuch.js",
            ]
            for path in attempts {
                try await client.execute(uri: path, method: .get) { response in
                    #expect([.notFound, .badRequest].contains(response.status), "\(path)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(path)")
                    #expect(!response.text.contains("PackageDescription"), "\(path)")
                    #expect(!response.text.contains("root:"), "\(path)")
                }
            }
            try await client.execute(uri: "/index.html", method: .post, headers: pageHeaders()) { response in
                #expect(response.status == .methodNotAllowed)
            }
        }
    }

    @Test func everyAnswerCarriesTheSecurityHeadersAndErrorsAreJSON() async throws {
        try await withServer { fixture, client in
            for path in ["/", "/api/entries", "/api/nosuchroute", "/api/stickers/\(fixture.stickerIds[0]).png", "/api/openapi.yaml"] {
                try await client.execute(uri: path, method: .get) { response in
                    let policy = try #require(response.headers[.contentSecurityPolicy], "\(path)")
                    #expect(policy.contains("script-src 'self'"))
                    #expect(policy.contains("default-src 'self'"))
                    #expect(!policy.contains("unsafe-inline"))
                    #expect(policy.contains("frame-ancestors 'none'"))
                    #expect(response.headers[.xContentTypeOptions] == "nosniff")
                }
            }
            try await client.execute(uri: "/api/nosuchroute", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.errorCode == "not-found")
            }
        }
    }

    @Test func jsonBodiesAreBounded() async throws {
        try await withServer { _, client in
            let huge = ByteBuffer(repeating: UInt8(ascii: " "), count: 2 * 1024 * 1024)
            try await client.execute(uri: "/api/packs", method: .post, headers: pageHeaders(), body: huge) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.errorCode == "too-large")
            }
            try await client.execute(uri: "/api/packs", method: .post, headers: pageHeaders(), body: "{not json".buffer) { response in
                #expect(response.status == .badRequest)
                #expect(response.errorCode == "bad-json")
            }
        }
    }
}
