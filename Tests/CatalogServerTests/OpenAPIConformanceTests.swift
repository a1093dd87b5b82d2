import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Checks real answers against the served OpenAPI document: for each request, the operation's
/// documented response for that status and content type, and the body against its schema.
@Suite("API: OpenAPI document", .timeLimit(.minutes(15)))
struct OpenAPIConformanceTests {
    /// A small JSON Schema (OpenAPI 3.0 subset) checker: type, nullable, properties, required,
    /// items, enum, additionalProperties, allOf, $ref. Returns the problems found, with their JSON path.
    /// `resolve` also follows a response's `$ref` to `#/components/responses/...`.
    struct SchemaChecker {
        let document: [String: Any]

        func resolve(_ schema: [String: Any]) -> [String: Any] {
            guard let ref = schema["$ref"] as? String else { return schema }
            var node: Any = document
            for key in ref.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(key)] as Any }
            return resolve(node as? [String: Any] ?? [:])
        }

        func check(_ value: Any, _ schemaIn: [String: Any], at path: String = "$") -> [String] {
            if value is NSNull, schemaIn["nullable"] as? Bool == true { return [] }
            if let all = schemaIn["allOf"] as? [[String: Any]] {
                return all.flatMap { check(value, $0, at: path) }
            }
            let schema = resolve(schemaIn)
            if value is NSNull { return schema["nullable"] as? Bool == true || schema["type"] == nil ? [] : ["\(path): null but not nullable"] }
            var problems: [String] = []
            if let options = schema["enum"] as? [Any], !options.contains(where: { "\($0)" == "\(value)" }) {
                problems.append("\(path): \(value) not in \(options)")
            }
            switch schema["type"] as? String {
            case "object":
                guard let object = value as? [String: Any] else { return ["\(path): not an object"] }
                let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
                for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                    problems.append("\(path): lacks \(key)")
                }
                for (key, item) in object {
                    if let property = properties[key] {
                        problems += check(item, property, at: "\(path).\(key)")
                    } else if let extra = schema["additionalProperties"] as? [String: Any] {
                        problems += check(item, extra, at: "\(path).\(key)")
                    } else if !properties.isEmpty {
                        problems.append("\(path): undocumented key \(key)")
                    }
                }
            case "array":
                guard let array = value as? [Any] else { return ["\(path): not an array"] }
                for (index, item) in array.enumerated() {
                    problems += check(item, schema["items"] as? [String: Any] ?? [:], at: "\(path)[\(index)]")
                }
            case "string":
                if !(value is String) { problems.append("\(path): not a string") }
            case "integer":
                if let number = value as? NSNumber, number.doubleValue == number.doubleValue.rounded() {} else {
                    problems.append("\(path): not an integer")
                }
            case "number":
                if !(value is NSNumber) { problems.append("\(path): not a number") }
            case "boolean":
                if !(value is Bool) { problems.append("\(path): not a boolean") }
            default:
                break
            }
            return problems
        }
    }

    /// The document's path template matching `path` (`/api/entries/{id}` for `/api/entries/3`).
    static func template(for path: String, in paths: [String: Any]) -> String? {
        let parts = path.split(separator: "?").first.map { $0.split(separator: "/") } ?? []
        return paths.keys.first { template in
            let pattern = template.split(separator: "/")
            guard pattern.count == parts.count else { return false }
            return zip(pattern, parts).allSatisfy { want, have in
                guard let open = want.firstIndex(of: "{"), let close = want.firstIndex(of: "}") else { return want == have }
                return have.hasPrefix(want[..<open]) && have.hasSuffix(want[want.index(after: close)...])
            }
        }
    }

    @Test func everyAnswerMatchesTheDocument() async throws {
        try await withServer { fixture, client in
            let document = try await servedDocument(client)
            #expect((document["openapi"] as? String)?.hasPrefix("3.") == true)
            let paths = try #require(document["paths"] as? [String: Any])
            let checker = SchemaChecker(document: document)
            let id = fixture.stickerIds[0]
            _ = try await fixture.repository.addToPack("demo", ids: fixture.stickerIds, createIfMissing: true)
            let copies = try await addNearDuplicates(to: fixture)

            let requests: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/api/entries?limit=3", nil), (.get, "/api/entries?status=failed", nil), (.get, "/api/entries?limit=0", nil),
                (.get, "/api/entries/\(id)", nil), (.get, "/api/entries/\(fixture.failedId)", nil), (.get, "/api/entries/424242", nil),
                (.get, "/api/search?color=orange&within=40", nil), (.get, "/api/search?color=nope", nil),
                (.get, "/api/stats", nil), (.get, "/api/stickers/\(id).png", nil), (.get, "/api/stickers/424242.png", nil),
                (.get, "/api/photos/\(id)/preview.jpg?size=64", nil), (.get, "/api/photos/424242/preview.jpg", nil),
                (.post, "/api/entries/\(id)/cutout", #"{"box":{"x":1,"y":1,"width":100,"height":100},"exclude":[{"x":2,"y":2}]}"#),
                (.post, "/api/entries/\(id)/cutout", #"{"box":{"x":1,"y":1,"width":0,"height":100}}"#),
                (.post, "/api/entries/\(fixture.failedId)/cutout", "{}"), (.post, "/api/entries/424242/cutout", "{}"),
                (.post, "/api/entries/\(id)/cutout/prepare", nil), (.post, "/api/entries/\(fixture.failedId)/cutout/prepare", nil),
                (.post, "/api/entries/424242/cutout/prepare", nil),
                (.put, "/api/entries/\(id)/guidance", #"{"box":{"x":1,"y":1,"width":200,"height":200}}"#),
                (.put, "/api/entries/\(id)/guidance", #"{"include":[{"x":-1,"y":1}]}"#), (.delete, "/api/entries/\(id)/guidance", nil),
                (.delete, "/api/entries/\(fixture.failedId)/guidance", nil), (.put, "/api/entries/424242/guidance", "{}"),
                (.get, "/api/packs", nil), (.get, "/api/packs/demo", nil), (.get, "/api/packs/nosuch", nil),
                (.post, "/api/packs", #"{"name":"second","title":"Two"}"#), (.post, "/api/packs", #"{"name":"second"}"#),
                (.post, "/api/packs/second/items", "{\"ids\":[\(id)]}"), (.post, "/api/packs/second/items", #"{"ids":[424242]}"#),
                (.patch, "/api/packs/second/items/\(id)", #"{"emoji":"😀"}"#),
                (.put, "/api/packs/second/order", "{\"ids\":[\(id)]}"), (.patch, "/api/packs/second", #"{"title":"Deux"}"#),
                (.delete, "/api/packs/second/items/\(id)", nil), (.delete, "/api/packs/second", nil),
                (.get, "/api/packs/demo/export?format=signal&dry-run=1", nil), (.get, "/api/packs/demo/export?format=zip", nil),
                (.get, "/api/packs/demo/export?format=nope", nil),
                (.get, "/api/settings", nil), (.put, "/api/settings", #"{"sticker.outline": 4}"#), (.put, "/api/settings", #"{"x": 1}"#),
                (.get, "/api/duplicates", nil), (.get, "/api/duplicates?within=99", nil), (.get, "/api/entries?distinct=1&limit=5", nil),
                (.post, "/api/duplicates/keep", "{\"id\":\(copies[1])}"), (.post, "/api/duplicates/keep", "{\"id\":\(fixture.failedId)}"),
                (.post, "/api/duplicates/distinct", "{\"ids\":[\(copies[0]),\(copies[1])]}"),
                (.post, "/api/duplicates/distinct", "{\"ids\":[\(copies[0]),424242]}"), (.post, "/api/duplicates/distinct", "{\"ids\":[1]}"),
                (.post, "/api/reprocess", nil),
            ]
            for (method, uri, body) in requests {
                try await client.execute(uri: uri, method: method, headers: pageHeaders(), body: body.map { ByteBuffer(string: $0) }) { response in
                    let where_ = "\(method) \(uri) → \(response.status.code)"
                    let template = try #require(Self.template(for: uri, in: paths), "\(where_): no path in the document")
                    let operation = try #require((paths[template] as? [String: Any])?[method.rawValue.lowercased()] as? [String: Any], "\(where_): no operation")
                    let responses = try #require(operation["responses"] as? [String: Any])
                    let documented = checker.resolve(try #require(responses[String(response.status.code)] as? [String: Any], "\(where_): status not documented"))
                    guard let content = documented["content"] as? [String: Any] else {
                        #expect(response.body.readableBytes == 0, "\(where_): a body where none is documented")
                        return
                    }
                    let type = String((response.headers[.contentType] ?? "").split(separator: ";").first ?? "")
                    let media = try #require(content[type] as? [String: Any], "\(where_): content type \(type) not documented")
                    guard type == "application/json" else { return }
                    let value = try JSONSerialization.jsonObject(with: Data(response.text.utf8), options: .fragmentsAllowed)
                    let problems = checker.check(value, media["schema"] as? [String: Any] ?? [:])
                    #expect(problems.isEmpty, "\(where_): \(problems.prefix(5))")
                }
            }
            await fixture.server.waitForJobs()
        }
    }
}
