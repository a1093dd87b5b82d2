import Catalog
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Processing
import Testing

@Suite("API: fix the cut-out (preview, save, reset)", .timeLimit(.minutes(15)))
struct CutoutRoutesTests {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47]

    @Test func aPreviewIsTheStickerASaveWouldMakeAndNothingIsSaved() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            let stored = try #require(try await fixture.repository.stickerPNG(id: id))
            let before = try await fixture.repository.entry(id: id)
            // No guidance: the automatic cut-out, byte for byte the sticker the import made.
            try await client.execute(uri: "/api/entries/\(id)/cutout", method: .post, headers: pageHeaders(), body: "{}".buffer) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(Array(response.body.readableBytesView) == stored)
            }
            let guided = #"{"box":{"x":40,"y":30,"width":240,"height":180},"include":[{"x":160,"y":120}],"exclude":[{"x":5,"y":5}]}"#
            try await client.execute(uri: "/api/entries/\(id)/cutout", method: .post, headers: pageHeaders(), body: guided.buffer) { response in
                #expect(response.status == .ok)
                #expect(Array(response.body.readableBytesView.prefix(4)) == Self.pngSignature)
            }
            #expect(try await fixture.repository.entry(id: id) == before)
            #expect(try await fixture.repository.stickerPNG(id: id) == stored)
        }
    }

    @Test func theDecodedPhotoIsKeptForTheNextPreview() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            try await client.execute(uri: "/api/entries/\(id)/cutout", method: .post, headers: pageHeaders(), body: "{}".buffer) { response in
                #expect(response.status == .ok)
            }
            // The source is not read again: a second preview works from the photo kept in memory.
            let path = try #require(try await fixture.repository.entry(id: id)?.path)
            try FileManager.default.removeItem(atPath: path)
            let body = #"{"box":{"x":0,"y":0,"width":320,"height":240}}"#
            try await client.execute(uri: "/api/entries/\(id)/cutout", method: .post, headers: pageHeaders(), body: body.buffer) { response in
                #expect(response.status == .ok)
            }
            // Another entry whose source is gone is refused, naming the file.
            let other = fixture.stickerIds[1]
            let otherPath = try #require(try await fixture.repository.entry(id: other)?.path)
            try FileManager.default.removeItem(atPath: otherPath)
            try await client.execute(uri: "/api/entries/\(other)/cutout", method: .post, headers: pageHeaders(), body: "{}".buffer) { response in
                #expect(response.status == .conflict)
                #expect(response.errorCode == "source-missing")
                #expect(response.text.contains(otherPath))
            }
        }
    }

    /// Opening "Fix the cut-out" decodes the photo ahead: the first preview no longer reads the source.
    @Test func prepareKeepsThePhotoForTheFirstPreview() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            try await client.execute(uri: "/api/entries/\(id)/cutout/prepare", method: .post, headers: pageHeaders()) { response in
                #expect(response.status == .noContent)
            }
            let path = try #require(try await fixture.repository.entry(id: id)?.path)
            try FileManager.default.removeItem(atPath: path)
            try await client.execute(uri: "/api/entries/\(id)/cutout", method: .post, headers: pageHeaders(), body: "{}".buffer) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/entries/\(fixture.failedId)/cutout/prepare", method: .post, headers: pageHeaders()) { response in
                #expect(response.status == .conflict && response.errorCode == "no-photo")
            }
            try await client.execute(uri: "/api/entries/424242/cutout/prepare", method: .post, headers: pageHeaders()) { response in
                #expect(response.status == .notFound)
            }
            // A change like any other: the token is needed.
            try await client.execute(uri: "/api/entries/\(id)/cutout/prepare", method: .post) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test func badGuidanceIs400WithTheValueNamed() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            let cases: [(String, String, String)] = [
                (#"{"box":{"x":300,"y":0,"width":40,"height":10}}"#, "invalid-guidance", "box 300,0,40,10 is outside the photo (320 x 240"),
                (#"{"box":{"x":10,"y":10,"width":0,"height":10}}"#, "invalid-guidance", "invalid box '10,10,0,10'"),
                (#"{"exclude":[{"x":10,"y":240}]}"#, "invalid-guidance", "exclude point 10,240 is outside the photo"),
                (#"{"include":[{"x":-1,"y":0}]}"#, "invalid-guidance", "include point -1,0"),
                (#"{"box":{"x":1,"y":2}}"#, "bad-json", "width"),
                (#"{"include":"here"}"#, "bad-json", "include"),
            ]
            for (body, code, message) in cases {
                try await client.execute(uri: "/api/entries/\(id)/cutout", method: .post, headers: pageHeaders(), body: body.buffer) { response in
                    #expect(response.status == .badRequest, "\(body)")
                    #expect(response.errorCode == code, "\(body)")
                    #expect(response.text.contains(message), "\(body): \(response.text)")
                }
            }
            try await client.execute(uri: "/api/entries/\(id)/cutout", method: .post, headers: pageHeaders()) { response in
                #expect(response.status == .badRequest)
                #expect(response.errorCode == "bad-json")
            }
        }
    }

    @Test func entriesWithoutAPhotoAreRefused() async throws {
        try await withServer { fixture, client in
            try await client.execute(uri: "/api/entries/424242/cutout", method: .post, headers: pageHeaders(), body: "{}".buffer) { response in
                #expect(response.status == .notFound)
                #expect(response.errorCode == "not-found")
            }
            try await client.execute(uri: "/api/entries/\(fixture.failedId)/cutout", method: .post, headers: pageHeaders(), body: "{}".buffer) { response in
                #expect(response.status == .conflict)
                #expect(response.errorCode == "no-photo")
                #expect(response.text.contains("entry \(fixture.failedId) has no photo to guide"))
            }
        }
    }

    @Test func aPreviewNeedsTheTokenAndThePagesOrigin() async throws {
        try await withServer { fixture, client in
            let uri = "/api/entries/\(fixture.stickerIds[0])/cutout"
            try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: "{}".buffer) { response in
                #expect(response.status == .forbidden)
                #expect(response.errorCode == "token-required")
            }
            var wrong = pageHeaders()
            wrong[HTTPField.Name("X-Catalog-Token")!] = "guess"
            try await client.execute(uri: uri, method: .post, headers: wrong, body: "{}".buffer) { response in
                #expect(response.errorCode == "bad-token")
            }
            var foreign = pageHeaders()
            foreign[.origin] = "http://evil.example"
            try await client.execute(uri: uri, method: .post, headers: foreign, body: "{}".buffer) { response in
                #expect(response.status == .forbidden)
                #expect(response.errorCode == "foreign-origin")
            }
        }
    }

    @Test func saveStoresTheGuidanceAndMakesThePreviewedStickerResetUndoesIt() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            let automatic = try #require(try await fixture.repository.stickerPNG(id: id))
            // A box over the left half cuts the centred subject: another sticker.
            let body = #"{"box":{"x":0,"y":0,"width":160,"height":240},"include":[],"exclude":[{"x":10,"y":10}]}"#
            let previewed = try await client.execute(uri: "/api/entries/\(id)/cutout", method: .post, headers: pageHeaders(), body: body.buffer) { response in
                #expect(response.status == .ok)
                return Array(response.body.readableBytesView)
            }
            #expect(previewed != automatic)
            try await client.execute(uri: "/api/entries/\(id)/guidance", method: .put, headers: pageHeaders(), body: body.buffer) { response in
                #expect(response.status == .ok)
                let entry = try #require(response.json as? [String: Any])
                #expect(entry["id"] as? Int == Int(id))
                let guidance = try #require(entry["guidance"] as? [String: Any])
                #expect((guidance["box"] as? [String: Int]) == ["x": 0, "y": 0, "width": 160, "height": 240])
                #expect((guidance["exclude"] as? [[String: Int]]) == [["x": 10, "y": 10]])
            }
            let stored = try #require(try await fixture.repository.entry(id: id))
            #expect(stored.guidance == CutoutGuidance(box: .init(x: 0, y: 0, width: 160, height: 240), exclude: [.init(x: 10, y: 10)]))
            // What was previewed is what was saved, byte for byte.
            #expect(try await fixture.repository.stickerPNG(id: id) == previewed)
            // GET answers the same entry.
            try await client.execute(uri: "/api/entries/\(id)", method: .get) { response in
                #expect((response.json as? [String: Any])?["guidance"] is [String: Any])
            }

            try await client.execute(uri: "/api/entries/\(id)/guidance", method: .delete, headers: pageHeaders(json: false)) { response in
                #expect(response.status == .ok)
                let entry = try #require(response.json as? [String: Any])
                #expect(entry["guidance"] is NSNull)
            }
            #expect(try await fixture.repository.entry(id: id)?.guidance == nil)
            #expect(try await fixture.repository.stickerPNG(id: id) == automatic)
        }
    }

    @Test func saveRefusesBadGuidanceAndChangesNothing() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            let before = try await fixture.repository.entry(id: id)
            let png = try await fixture.repository.stickerPNG(id: id)
            try await client.execute(
                uri: "/api/entries/\(id)/guidance", method: .put, headers: pageHeaders(),
                body: #"{"box":{"x":0,"y":0,"width":321,"height":10}}"#.buffer
            ) { response in
                #expect(response.status == .badRequest)
                #expect(response.errorCode == "invalid-guidance")
                #expect(response.text.contains("box 0,0,321,10 is outside the photo"))
            }
            try await client.execute(uri: "/api/entries/\(id)/guidance", method: .put, headers: pageHeaders(), body: "[1]".buffer) { response in
                #expect(response.status == .badRequest)
                #expect(response.errorCode == "bad-json")
            }
            #expect(try await fixture.repository.entry(id: id) == before)
            #expect(try await fixture.repository.stickerPNG(id: id) == png)
            try await client.execute(uri: "/api/entries/424242/guidance", method: .put, headers: pageHeaders(), body: "{}".buffer) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/entries/\(fixture.failedId)/guidance", method: .delete, headers: pageHeaders(json: false)) { response in
                #expect(response.status == .conflict)
                #expect(response.errorCode == "no-photo")
            }
            let path = try #require(before?.path)
            try FileManager.default.removeItem(atPath: path)
            try await client.execute(uri: "/api/entries/\(id)/guidance", method: .put, headers: pageHeaders(), body: "{}".buffer) { response in
                #expect(response.status == .conflict)
                #expect(response.errorCode == "source-missing")
                #expect(response.text.contains(path))
            }
        }
    }

    @Test func saveAndResetNeedTheToken() async throws {
        try await withServer { fixture, client in
            let uri = "/api/entries/\(fixture.stickerIds[0])/guidance"
            for method in [HTTPRequest.Method.put, .delete] {
                try await client.execute(uri: uri, method: method, headers: [.contentType: "application/json"], body: "{}".buffer) { response in
                    #expect(response.status == .forbidden, "\(method)")
                    #expect(response.errorCode == "token-required", "\(method)")
                }
                var foreign = pageHeaders()
                foreign[.origin] = "http://evil.example"
                try await client.execute(uri: uri, method: method, headers: foreign, body: "{}".buffer) { response in
                    #expect(response.errorCode == "foreign-origin", "\(method)")
                }
            }
            #expect(try await fixture.repository.entry(id: fixture.stickerIds[0])?.guidance == nil)
        }
    }
}
