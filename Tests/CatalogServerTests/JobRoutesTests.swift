import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import SampleImages
import Testing

@testable import CatalogServer

@Suite("API: upload, import, reprocess, events", .timeLimit(.minutes(15)))
struct JobRoutesTests {
    /// A multipart/form-data body with one file field per (name, bytes).
    static func multipart(_ files: [(String, [UInt8])], boundary: String = "catalog-test-boundary") -> (HTTPFields, ByteBuffer) {
        var body = ByteBuffer()
        for (name, bytes) in files {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"photos\"; filename=\"\(name)\"\r\nContent-Type: image/jpeg\r\n\r\n")
            body.writeBytes(bytes)
            body.writeString("\r\n")
        }
        body.writeString("--\(boundary)--\r\n")
        var headers = pageHeaders(json: false)
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        return (headers, body)
    }

    static func newPhoto(_ index: Int) throws -> [UInt8] {
        try SamplePhotos.benchmarkJPEG(index: index, megapixels: 0.1)
    }

    @Test func anUploadIsSavedByHashImportedAndReportedAsEvents() async throws {
        try await withServer { fixture, client in
            let before = try await fixture.repository.entries(.all).count
            let photo = try Self.newPhoto(7)
            // Listen first: the event stream ends when the hub closes, so the router client gets it whole.
            let events = Task {
                try await client.execute(uri: "/api/events", method: .get) { response in
                    (response.status, response.headers[.contentType], response.text)
                }
            }
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            while fixture.server.hub.subscriberCount == 0 && clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            try #require(fixture.server.hub.subscriberCount > 0, "the event stream never subscribed")
            let (headers, body) = Self.multipart([("holiday.JPG", photo), ("../../evil.jpg", try Self.newPhoto(8))])
            try await client.execute(uri: "/api/import", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .accepted)
                let answer = try #require(response.json as? [String: Any])
                #expect((answer["job"] as? [String: Any])?["kind"] as? String == "import")
                let files = try #require(answer["files"] as? [[String: Any]])
                #expect(files.count == 2)
                for file in files {
                    let path = try #require(file["path"] as? String)
                    #expect(path.hasPrefix(fixture.uploadsDirectory.path + "/"))
                    #expect(URL(fileURLWithPath: path).lastPathComponent == (file["sha256"] as? String ?? "") + ".jpg")
                }
                #expect(files.first?["name"] as? String == "holiday.JPG")
                #expect(files.last?["name"] as? String == "evil.jpg")
            }
            await fixture.server.waitForJobs()
            fixture.server.hub.close()
            let (status, type, text) = try await events.value
            #expect(status == .ok)
            #expect(type == "text/event-stream; charset=utf-8")
            #expect(text.contains("event: job\ndata: {\"id\":1,\"kind\":\"import\",\"state\":\"started\",\"total\":2}"))
            #expect(text.contains("event: progress\ndata: "))
            #expect(text.contains("\"state\":\"finished\""))
            #expect(try await fixture.repository.entries(.all).count == before + 2)
            try await client.execute(uri: "/api/entries?limit=2", method: .get) { response in
                let entries = (response.json as? [String: Any])?["entries"] as? [[String: Any]]
                #expect(entries?.allSatisfy { ($0["path"] as? String)?.hasPrefix(fixture.uploadsDirectory.path) == true } == true)
            }
        }
    }

    @Test func uploadsAreBoundedAndCheckedAndOneJobRunsAtATime() async throws {
        try await withServer(maxUploadBytes: 4096) { fixture, client in
            let (headers, body) = Self.multipart([("big.jpg", try Self.newPhoto(1))])
            try await client.execute(uri: "/api/import", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.errorCode == "too-large")
            }
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: fixture.uploadsDirectory.path)) ?? []
            #expect(leftovers.isEmpty)
            var plain = pageHeaders(json: false)
            plain[.contentType] = "image/jpeg"
            try await client.execute(uri: "/api/import", method: .post, headers: plain, body: "x".buffer) { response in
                #expect(response.status == .badRequest)
                #expect(response.errorCode == "bad-upload")
            }
            let (emptyHeaders, emptyBody) = Self.multipart([])
            try await client.execute(uri: "/api/import", method: .post, headers: emptyHeaders, body: emptyBody) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func reprocessRunsStaleEntriesAndASecondJobIsRefused() async throws {
        try await withServer { fixture, client in
            try await fixture.repository.store(.paletteColors, value: "3")
            try await client.execute(uri: "/api/reprocess", method: .post, headers: pageHeaders(), body: "{}".buffer) { response in
                #expect(response.status == .accepted)
                #expect((((response.json as? [String: Any])?["job"] as? [String: Any])?["total"] as? Int ?? 0) >= fixture.stickerIds.count)
            }
            try await client.execute(uri: "/api/reprocess", method: .post, headers: pageHeaders(), body: "{}".buffer) { response in
                // Either still running (409) or already done (202 with nothing to do).
                #expect([.conflict, .accepted].contains(response.status))
            }
            await fixture.server.waitForJobs()
            try await client.execute(uri: "/api/entries?stale=1", method: .get) { response in
                #expect(((response.json as? [String: Any])?["total"] as? Int ?? 99) <= 1)
            }
        }
    }
}
