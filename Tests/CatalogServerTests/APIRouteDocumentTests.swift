import CatalogServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Yams

/// The routes the server registers and the operations its OpenAPI document describes are the same
/// set: a route the document does not describe cannot ship, nor a documented operation with no route.
@Suite("API: routes against the document", .timeLimit(.minutes(15)))
struct APIRouteDocumentTests {
    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// The document's operations as "METHOD /path/{template}".
    static func operations(in document: [String: Any]) -> Set<String> {
        let paths = document["paths"] as? [String: Any] ?? [:]
        var operations: Set<String> = []
        for (path, item) in paths {
            for method in (item as? [String: Any] ?? [:]).keys where methods.contains(method) {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test func everyRouteIsDocumentedAndEveryOperationHasARoute() async throws {
        try await withServer { fixture, client in
            let document = try await servedDocument(client)
            let documented = Self.operations(in: document)
            let routes = Set(fixture.server.routes().map { "\($0.method.rawValue) \($0.path)" })
            #expect(routes.count > 20, "the server registers its routes: \(routes.sorted())")
            #expect(routes.subtracting(documented).isEmpty, "routes the document does not describe: \(routes.subtracting(documented).sorted())")
            #expect(documented.subtracting(routes).isEmpty, "documented operations with no route: \(documented.subtracting(routes).sorted())")
        }
    }

    @Test func aPathAskedWithAnUndeclaredMethodIsAnswered405WithAllow() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.post, "/api/stats", "GET, HEAD"), (.delete, "/api/entries/\(id)", "GET, HEAD"),
                (.patch, "/api/settings", "GET, PUT, HEAD"), (.options, "/api/packs", "GET, POST, HEAD"),
            ]
            for (method, path, allowed) in cases {
                try await client.execute(uri: path, method: method, headers: pageHeaders()) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(response.headers[.allow] == allowed, "\(method) \(path)")
                    #expect(response.errorCode == "method-not-allowed", "\(method) \(path)")
                }
            }
            // A path no route has is still 404.
            try await client.execute(uri: "/api/nothing-here", method: .post, headers: pageHeaders()) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}

/// The document `/api/openapi.yaml` serves, parsed, with mappings as `[String: Any]`.
func servedDocument(_ client: any TestClientProtocol) async throws -> [String: Any] {
    let yaml = try await client.execute(uri: "/api/openapi.yaml", method: .get) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "application/yaml; charset=utf-8")
        return response.text
    }
    return try #require(plainValue(try Yams.load(yaml: yaml)) as? [String: Any])
}

/// A value Yams loaded with its mappings' keys as strings, as JSONSerialization would give them.
private func plainValue(_ value: Any?) -> Any {
    switch value {
    case let mapping as [AnyHashable: Any]:
        return Dictionary(uniqueKeysWithValues: mapping.map { ("\($0.key)", plainValue($0.value)) })
    case let sequence as [Any]:
        return sequence.map(plainValue)
    case let value?:
        return value
    default:
        return NSNull()
    }
}
