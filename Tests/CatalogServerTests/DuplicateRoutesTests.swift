import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import Processing
import Testing

@testable import CatalogServer

@Suite("API: near-duplicates", .timeLimit(.minutes(15)))
struct DuplicateRoutesTests {
    @Test func groupsAreListedWithTheirBestAndTheDistanceIsChecked() async throws {
        try await withServer { fixture, client in
            let ids = try await addNearDuplicates(to: fixture)
            try await client.execute(uri: "/api/duplicates", method: .get) { response in
                #expect(response.status == .ok)
                let document = try #require(response.json as? [String: Any])
                #expect(document["within"] as? Int == SimilaritySignature.defaultWithin)
                let group = try #require(Self.group(containing: ids[0], in: document))
                #expect(group["best"] as? Int == Int(ids[0]))
                #expect(group["bestChosenBy"] as? String == "rule")
                let members = try #require(group["members"] as? [[String: Any]])
                #expect(members.map { $0["id"] as? Int } == ids.map { Int($0) })
                #expect(members.map { $0["distance"] as? Int } == [0, 1, 2])
                #expect(members.first?["width"] as? Int == 4000)
                #expect(members.first?["fileSize"] as? Int == 3000)
            }
            try await client.execute(uri: "/api/duplicates?within=0", method: .get) { response in
                #expect(response.status == .ok)
                #expect(Self.group(containing: ids[0], in: response.json) == nil)
            }
            for bad in ["within=17", "within=-1", "within=", "within=x"] {
                try await client.execute(uri: "/api/duplicates?\(bad)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    #expect(response.errorCode == "bad-parameter", "\(bad)")
                }
            }
        }
    }

    @Test func keepingAnEntryMakesItTheBestAndIsRemembered() async throws {
        try await withServer { fixture, client in
            let ids = try await addNearDuplicates(to: fixture)
            try await client.execute(uri: "/api/duplicates/keep", method: .post, headers: pageHeaders(), body: "{\"id\":\(ids[2])}".buffer) { response in
                #expect(response.status == .ok)
                let group = try #require(Self.group(containing: ids[0], in: response.json))
                #expect(group["best"] as? Int == Int(ids[2]))
                #expect(group["bestChosenBy"] as? String == "user")
            }
            try await client.execute(uri: "/api/duplicates", method: .get) { response in
                #expect(Self.group(containing: ids[0], in: response.json)?["best"] as? Int == Int(ids[2]))
            }
            // Another distance for the answer, null for the default.
            try await client.execute(uri: "/api/duplicates/keep", method: .post, headers: pageHeaders(), body: "{\"id\":\(ids[1]),\"within\":2}".buffer) { response in
                #expect(response.status == .ok)
                #expect((response.json as? [String: Any])?["within"] as? Int == 2)
                #expect(Self.group(containing: ids[0], in: response.json)?["best"] as? Int == Int(ids[1]))
            }
            try await client.execute(uri: "/api/duplicates/keep", method: .post, headers: pageHeaders(), body: "{\"id\":\(ids[0]),\"within\":null}".buffer) { response in
                #expect(response.status == .ok)
                #expect((response.json as? [String: Any])?["within"] as? Int == SimilaritySignature.defaultWithin)
            }
            let refusals: [(String, HTTPResponse.Status, String)] = [
                ("{\"id\":\(fixture.failedId)}", .notFound, "not-in-group"), ("{\"id\":424242}", .notFound, "not-in-group"),
                ("{\"id\":\(ids[0]),\"within\":0}", .notFound, "not-in-group"),
                ("{\"id\":0}", .badRequest, "bad-id"), ("{\"id\":\(ids[0]),\"within\":17}", .badRequest, "bad-json"),
                ("{\"within\":4}", .badRequest, "bad-json"), ("{\"id\":\"1\"}", .badRequest, "bad-json"), ("", .badRequest, "bad-json"),
            ]
            for (body, status, code) in refusals {
                try await client.execute(uri: "/api/duplicates/keep", method: .post, headers: pageHeaders(), body: body.buffer) { response in
                    #expect(response.status == status, "\(body)")
                    #expect(response.errorCode == code, "\(body)")
                }
            }
        }
    }

    @Test func entriesMarkedDistinctAreNeverGroupedAgain() async throws {
        try await withServer { fixture, client in
            let ids = try await addNearDuplicates(to: fixture)
            let refusals: [(String, HTTPResponse.Status, String)] = [
                ("{\"ids\":[\(ids[0])]}", .badRequest, "bad-json"), ("{\"ids\":[\(ids[0]),\(ids[0])]}", .badRequest, "bad-json"),
                ("{\"ids\":[\(ids[0]),0]}", .badRequest, "bad-id"), ("{\"ids\":[\(ids[0]),\(ids[1])],\"within\":99}", .badRequest, "bad-json"),
                ("{\"ids\":[\(ids[0]),424242]}", .notFound, "not-found"), ("{}", .badRequest, "bad-json"),
            ]
            for (body, status, code) in refusals {
                try await client.execute(uri: "/api/duplicates/distinct", method: .post, headers: pageHeaders(), body: body.buffer) { response in
                    #expect(response.status == status, "\(body)")
                    #expect(response.errorCode == code, "\(body)")
                }
            }
            // Nothing was recorded by the refusals.
            try await client.execute(uri: "/api/duplicates", method: .get) { response in
                #expect((Self.group(containing: ids[0], in: response.json)?["members"] as? [Any])?.count == 3)
            }
            let all = "{\"ids\":[\(ids.map(String.init).joined(separator: ","))]}"
            try await client.execute(uri: "/api/duplicates/distinct", method: .post, headers: pageHeaders(), body: all.buffer) { response in
                #expect(response.status == .ok)
                #expect(Self.group(containing: ids[0], in: response.json) == nil)
            }
            try await client.execute(uri: "/api/duplicates?within=16", method: .get) { response in
                #expect(Self.group(containing: ids[0], in: response.json) == nil)
            }
        }
    }

    @Test func decisionsNeedTheTokenAndASameOriginRequest() async throws {
        try await withServer { fixture, client in
            let ids = try await addNearDuplicates(to: fixture)
            for (uri, body) in [("/api/duplicates/keep", "{\"id\":\(ids[1])}"), ("/api/duplicates/distinct", "{\"ids\":[\(ids[0]),\(ids[1])]}")] {
                try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: body.buffer) { response in
                    #expect(response.status == .forbidden, "\(uri)")
                    #expect(response.errorCode == "token-required", "\(uri)")
                }
                var foreign = pageHeaders()
                foreign[.origin] = "http://evil.example"
                try await client.execute(uri: uri, method: .post, headers: foreign, body: body.buffer) { response in
                    #expect(response.errorCode == "foreign-origin", "\(uri)")
                }
            }
            try await client.execute(uri: "/api/duplicates", method: .get) { response in
                let group = Self.group(containing: ids[0], in: response.json)
                #expect(group?["bestChosenBy"] as? String == "rule")
                #expect((group?["members"] as? [Any])?.count == 3)
            }
        }
    }

    @Test func theCollapsedListingShowsOnlyTheBestOfEachGroup() async throws {
        try await withServer { fixture, client in
            let ids = try await addNearDuplicates(to: fixture)
            let hidden = try await client.execute(uri: "/api/duplicates", method: .get) { response in
                let groups = (response.json as? [String: Any])?["groups"] as? [[String: Any]] ?? []
                return Set(groups.flatMap { ($0["members"] as? [[String: Any]] ?? []).dropFirst().compactMap { $0["id"] as? Int } })
            }
            #expect(hidden.isSuperset(of: [Int(ids[1]), Int(ids[2])]))
            for status in ["", "&status=ok", "&status=failed", "&stale=1"] {
                let (total, every) = try await listing(client, "/api/entries?limit=1000\(status)")
                let (collapsedTotal, collapsed) = try await listing(client, "/api/entries?limit=1000&distinct=true\(status)")
                #expect(collapsed == every.filter { !hidden.contains($0) }, "\(status)")
                #expect(collapsedTotal == collapsed.count, "\(status)")
                #expect(total == every.count, "\(status)")
                // Page by page, the same entries in the same order, and the same total on every page.
                var paged: [Int] = []
                for offset in stride(from: 0, to: collapsed.count + 2, by: 2) {
                    let (pageTotal, page) = try await listing(client, "/api/entries?limit=2&offset=\(offset)&distinct=1\(status)")
                    #expect(pageTotal == collapsedTotal, "\(status) offset \(offset)")
                    paged += page
                }
                #expect(paged == collapsed, "\(status)")
            }
            let (_, plain) = try await listing(client, "/api/entries?limit=1000&distinct=0")
            #expect(plain.contains(Int(ids[1])) && plain.contains(Int(ids[2])))
            for bad in ["distinct=", "distinct=maybe"] {
                try await client.execute(uri: "/api/entries?\(bad)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    #expect(response.errorCode == "bad-parameter", "\(bad)")
                }
            }
        }
    }

    /// The listing read in chunks smaller than a page, so that it stops before its end and counts
    /// the total from the store's: the same entries and totals as read whole.
    @Test func theCollapsedListingReadInSmallChunksAgrees() async throws {
        let fixture = try await ServerFixture.make()
        defer { fixture.remove() }
        let ids = try await addNearDuplicates(to: fixture)
        let api = fixture.server.api
        let settings = try await api.workingSettings()
        for status in [nil, EntryStatus.ok, .failed] {
            let whole = try await api.collapsedPage(EntryPageQuery(limit: 1000, status: status), settings: settings)
            #expect(!whole.entries.contains { $0.id == ids[1] || $0.id == ids[2] })
            for offset in 0...whole.entries.count {
                let page = try await api.collapsedPage(EntryPageQuery(limit: 2, offset: offset, status: status), settings: settings, chunk: 3)
                #expect(page.total == whole.total, "\(String(describing: status)) offset \(offset)")
                #expect(page.entries.map(\.id) == Array(whole.entries.dropFirst(offset).prefix(2)).map(\.id), "\(String(describing: status)) offset \(offset)")
            }
        }
    }

    /// The group (a JSON object) of the duplicates document `json` with `id` among its members.
    static func group(containing id: Int64, in json: Any?) -> [String: Any]? {
        let groups = (json as? [String: Any])?["groups"] as? [[String: Any]] ?? []
        return groups.first { ($0["members"] as? [[String: Any]] ?? []).contains { $0["id"] as? Int == Int(id) } }
    }

    /// The total and the ids of an entries listing.
    func listing(_ client: any TestClientProtocol, _ uri: String) async throws -> (Int, [Int]) {
        try await client.execute(uri: uri, method: .get) { response in
            #expect(response.status == .ok, "\(uri)")
            let page = try #require(response.json as? [String: Any], "\(uri)")
            return (page["total"] as? Int ?? -1, (page["entries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int })
        }
    }
}

/// Records three entries whose hand-made signatures are 0, 1 and 2 bits apart (none near the demo
/// photos'), largest photo first: one group, the first its best by the rule. Returns their ids in that order.
func addNearDuplicates(to fixture: ServerFixture) async throws -> [Int64] {
    let bits: UInt64 = 0x5A5A_C3C3_0F0F_9669
    let shapes: [(UInt64, Int, Int)] = [(bits, 4000, 3000), (bits ^ 1, 2000, 1500), (bits ^ 3, 1000, 750)]
    var ids: [Int64] = []
    for (number, (hash, width, height)) in shapes.enumerated() {
        let signature = SimilaritySignature(
            photo: PerceptualHash(bits: hash), surroundings: PerceptualHash(bits: hash), subject: PerceptualHash(bits: hash),
            sharpness: 20, color: OklabColor(l: 0.7, a: 0.1, b: 0.1))
        let photo = ProcessedPhoto(
            format: .jpeg, width: width, height: height, exif: nil,
            sticker: StickerImage(png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], width: 512, height: 384),
            palette: Palette(colors: [PaletteColor(hex: "#ff8800", l: 0.75, a: 0.125, b: 0.15, share: 1)]),
            pipelineVersion: PhotoProcessor.pipelineVersion, settings: StickerSettings(size: 512, paletteColors: 1), signature: signature)
        let sha = String(repeating: "\(number + 1)", count: 64)
        let source = SourceFile(path: fixture.photosDirectory.appending(path: "copy-\(number).jpg").path, size: Int64(3000 - number * 1000), modificationTime: 1_714_559_696)
        guard case .imported(let id) = try await fixture.repository.recordProcessed(photo, sha256: sha, source: source) else {
            Issue.record("entry \(number) was not recorded as new")
            continue
        }
        ids.append(id)
    }
    return ids
}
