import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Every number the API takes (JSON bodies, query strings, path ids) at its extremes: a clear 4xx that
/// names the problem, and a server that goes on answering. A trap here would end the test process.
@Suite("API: numbers at their extremes", .timeLimit(.minutes(15)))
struct NumericExtremesRoutesTests {
    /// What JSON can say for a whole number, and what a client may send where one is expected. NaN and
    /// the infinities are not JSON; `1e308` and `-0` are.
    static let jsonNumbers = [
        "-9223372036854775808", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "9007199254740992", "-9007199254740992", "1e308", "-1e308", "-0", "0.5",
    ]
    /// The same as query-string text, with what `Double(text)` takes besides.
    static let queryNumbers = jsonNumbers + ["nan", "inf", "-inf", "1e400"]

    /// Boxes whose sums or differences leave Int, and points far outside the photo.
    static func guidanceBodies() -> [String] {
        var bodies: [String] = []
        // -0 is 0: a box at the corner and a point on the photo, which are guidance like any other.
        for number in jsonNumbers where number != "-0" {
            bodies.append(#"{"box":{"x":\#(number),"y":0,"width":1,"height":1}}"#)
            bodies.append(#"{"box":{"x":0,"y":\#(number),"width":1,"height":1}}"#)
            bodies.append(#"{"box":{"x":1,"y":0,"width":\#(number),"height":1}}"#)
            bodies.append(#"{"box":{"x":0,"y":1,"width":1,"height":\#(number)}}"#)
            bodies.append(#"{"include":[{"x":\#(number),"y":0}]}"#)
            bodies.append(#"{"exclude":[{"x":0,"y":\#(number)}]}"#)
        }
        bodies.append(#"{"box":{"x":9223372036854775807,"y":9223372036854775807,"width":9223372036854775807,"height":9223372036854775807}}"#)
        bodies.append(#"{"box":{"x":NaN,"y":0,"width":1,"height":1}}"#)
        return bodies
    }

    @Test func guidanceAtTheExtremesIs400AndTheServerLives() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            let before = try await fixture.repository.entry(id: id)
            for body in Self.guidanceBodies() {
                for (uri, method) in [("/api/entries/\(id)/cutout", HTTPRequest.Method.post), ("/api/entries/\(id)/guidance", .put)] {
                    try await client.execute(uri: uri, method: method, headers: pageHeaders(), body: body.buffer) { response in
                        #expect(response.status == .badRequest, "\(method) \(uri) \(body): \(response.text)")
                        #expect(["invalid-guidance", "bad-json"].contains(response.errorCode ?? ""), "\(body): \(response.text)")
                    }
                }
            }
            #expect(try await fixture.repository.entry(id: id) == before, "nothing was stored")
            try await Self.expectAlive(client)
        }
    }

    @Test func queryNumbersAtTheExtremesAre400() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            for number in Self.queryNumbers {
                let encoded = number.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? number
                var uris = [
                    "/api/entries?limit=\(encoded)", "/api/search?color=red&limit=\(encoded)",
                    "/api/photos/\(id)/preview.jpg?size=\(encoded)",
                ]
                // A ΔE of 0.5 is a search like any other.
                if number != "0.5" { uris.append("/api/search?color=red&within=\(encoded)") }
                // -0 is 0, which these take.
                if number != "-0" { uris += ["/api/entries?offset=\(encoded)", "/api/duplicates?within=\(encoded)"] }
                for uri in uris {
                    try await client.execute(uri: uri, method: .get) { response in
                        #expect(response.status == .badRequest, "\(uri): \(response.status) \(response.text)")
                        #expect(response.errorCode == "bad-parameter", "\(uri): \(response.text)")
                    }
                }
                try await client.execute(uri: "/api/entries/\(encoded)", method: .get) { response in
                    #expect([.badRequest, .notFound].contains(response.status), "\(number): \(response.text)")
                }
            }
            try await Self.expectAlive(client)
        }
    }

    @Test func packAndSettingNumbersAtTheExtremesAreRefused() async throws {
        try await withServer { fixture, client in
            let ids = fixture.stickerIds.prefix(2).map(String.init).joined(separator: ",")
            try await client.execute(uri: "/api/packs", method: .post, headers: pageHeaders(), body: #"{"name":"fav"}"#.buffer) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/api/packs/fav/items", method: .post, headers: pageHeaders(), body: "{\"ids\":[\(ids)]}".buffer) { response in
                #expect(response.status == .ok)
            }
            let first = fixture.stickerIds[0]
            for number in Self.jsonNumbers {
                try await client.execute(
                    uri: "/api/packs/fav/items/\(first)", method: .patch, headers: pageHeaders(), body: "{\"position\":\(number)}".buffer
                ) { response in
                    #expect(response.status == .badRequest, "position \(number): \(response.text)")
                }
                for (uri, method) in [("/api/packs/fav/items", HTTPRequest.Method.post), ("/api/packs/fav/order", .put)] {
                    try await client.execute(uri: uri, method: method, headers: pageHeaders(), body: "{\"ids\":[\(number)]}".buffer) { response in
                        #expect((400..<500).contains(response.status.code), "\(uri) \(number): \(response.text)")
                    }
                }
                // -0 is 0: no outline, which is allowed.
                for key in ["palette.colors", "sticker.size", "sticker.outline"] where !(key == "sticker.outline" && number == "-0") {
                    try await client.execute(uri: "/api/settings", method: .put, headers: pageHeaders(), body: "{\"\(key)\":\(number)}".buffer) { response in
                        #expect(response.status == .badRequest, "\(key) \(number): \(response.text)")
                    }
                }
            }
            try await Self.expectAlive(client)
        }
    }

    /// The server still answers, and its catalog reads as before.
    static func expectAlive(_ client: any TestClientProtocol) async throws {
        try await client.execute(uri: "/api/stats", method: .get) { response in
            #expect(response.status == .ok)
        }
    }
}
