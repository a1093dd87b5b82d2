import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import Processing
import Testing

@Suite("API: entries, search, stats, media", .timeLimit(.minutes(15)))
struct EntryRoutesTests {
    @Test func entriesAreNewestFirstWithTotalAndPaging() async throws {
        try await withServer { fixture, client in
            let all = fixture.stickerIds.count + 1
            try await client.execute(uri: "/api/entries?limit=2&offset=1", method: .get) { response in
                #expect(response.status == .ok)
                let page = try #require(response.json as? [String: Any])
                #expect(page["total"] as? Int == all)
                #expect(page["limit"] as? Int == 2)
                #expect(page["offset"] as? Int == 1)
                let ids = (page["entries"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
                #expect(ids.count == 2)
                #expect(ids == ids.sorted(by: >))
                let first = try #require((page["entries"] as? [[String: Any]])?.first)
                #expect(Set(first.keys) == ["id", "sha256", "path", "status", "failure", "animated", "reasons"])
            }
            try await client.execute(uri: "/api/entries?status=failed", method: .get) { response in
                let page = try #require(response.json as? [String: Any])
                #expect(page["total"] as? Int == 1)
                let entry = try #require((page["entries"] as? [[String: Any]])?.first)
                #expect(entry["id"] as? Int == Int(fixture.failedId))
                #expect((entry["failure"] as? [String: Any])?["code"] as? String != nil)
            }
            // Nothing is stale in a fresh catalog but the failed entry, if its failure is retried.
            try await client.execute(uri: "/api/entries?stale=1", method: .get) { response in
                #expect(response.status == .ok)
                let page = try #require(response.json as? [String: Any])
                #expect((page["total"] as? Int ?? 99) <= 1)
            }
            for bad in ["limit=0", "limit=abc", "limit=", "offset=-1", "offset=2147483648", "status=maybe", "status=", "stale=perhaps", "stale=", "limit=100000"] {
                try await client.execute(uri: "/api/entries?\(bad)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    #expect(response.errorCode == "bad-parameter", "\(bad)")
                }
            }
        }
    }

    @Test func entryIsExactlyWhatShowJSONPrints() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            let detail = try #require(try await fixture.repository.entry(id: id))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            let expected = String(decoding: try encoder.encode(detail), as: UTF8.self) + "\n"
            try await client.execute(uri: "/api/entries/\(id)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.text == expected)
            }
            try await client.execute(uri: "/api/entries/999999", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.errorCode == "not-found")
            }
            try await client.execute(uri: "/api/entries/zero", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.errorCode == "bad-id")
            }
        }
    }

    @Test func searchMatchesTheCLIAndRefusesBadColours() async throws {
        try await withServer { fixture, client in
            let query = ColorQuery(colors: [try #require(ColorName.parse("#ff8800")).oklab], within: 30, limit: 5)
            let expected = try await fixture.repository.search(query).map(ColorSearchHit.init)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            let text = String(decoding: try encoder.encode(expected), as: UTF8.self) + "\n"
            try await client.execute(uri: "/api/search?color=%23ff8800&within=30&limit=5", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text == text)
                #expect(!expected.isEmpty)
            }
            let none = String(decoding: try encoder.encode([ColorSearchHit]()), as: UTF8.self) + "\n"
            try await client.execute(uri: "/api/search?color=orange&camera=nosuchcamera", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text == none)
            }
            for bad in ["color=notacolour", "", "color=red&within=0", "color=red&taken-after=yesterday", "color=red&limit=0", "color=red&color=", "color=red&within=", "color=red&taken-before="] {
                try await client.execute(uri: "/api/search?\(bad)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                }
            }
            try await client.execute(uri: "/api/search?color=notacolour", method: .get) { response in
                #expect(response.errorCode == "bad-color")
            }
        }
    }

    @Test func statsAreTheCLIs() async throws {
        try await withServer { fixture, client in
            try await client.execute(uri: "/api/stats", method: .get) { response in
                #expect(response.status == .ok)
                let stats = try #require(response.json as? [String: Any])
                #expect(stats["total"] as? Int == fixture.stickerIds.count + 1)
                #expect(stats["failed"] as? Int == 1)
            }
        }
    }

    @Test func stickerHasETagAndRevalidates() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            let png = try #require(try await fixture.repository.stickerPNG(id: id))
            let etag = try await client.execute(uri: "/api/stickers/\(id).png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.cacheControl]?.contains("no-cache") == true)
                #expect(Array(response.body.readableBytesView) == png)
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/api/stickers/\(id).png", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/api/stickers/\(fixture.failedId).png", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.errorCode == "not-found")
            }
        }
    }

    /// An animated entry: its moving form at .webp (cached as the PNG is), `animated` in the page and
    /// the timing in the detail; a still answers `not-animated`.
    @Test func anAnimatedStickerIsServedAsWebPAndMarkedInThePage() async throws {
        try await withServer { fixture, client in
            let frames = (0..<3).map { RGBAImage(width: 40, height: 30, red: UInt8(60 * $0), green: 90, blue: 200) }
            let animation = try AnimatedSticker(frames: frames, durations: [50, 50, 100])
            let base = try #require(try await fixture.repository.stickerPNG(id: fixture.stickerIds[0]))
            let photo = ProcessedPhoto(
                format: .mp4, width: 640, height: 480, exif: nil, sticker: StickerImage(png: base, width: 40, height: 30),
                palette: Palette(), pipelineVersion: PhotoProcessor.pipelineVersion, settings: .default, animation: animation)
            guard case .imported(let id) = try await fixture.repository.recordProcessed(
                photo, sha256: String(repeating: "a", count: 64), source: SourceFile(path: "/clips/dog.mp4", size: 1, modificationTime: 1))
            else { Issue.record("not imported"); return }
            let etag = try await client.execute(uri: "/api/stickers/\(id).webp", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/webp")
                #expect(Array(response.body.readableBytesView) == animation.webp)
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/api/stickers/\(id).webp", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(uri: "/api/stickers/\(fixture.stickerIds[0]).webp", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.errorCode == "not-animated")
            }
            try await client.execute(uri: "/api/entries?limit=100", method: .get) { response in
                let entries = try #require((response.json as? [String: Any])?["entries"] as? [[String: Any]])
                let animated = Set(entries.filter { $0["animated"] as? Bool == true }.compactMap { $0["id"] as? Int })
                // The demo set's three animated samples are in the fixture too.
                let names = ["/magenta-star-bouncing.webp", "/lime-ball-rolling.png", "/green-blob-drifting.webp"]
                let sample = Set(entries.filter { entry in names.contains { (entry["path"] as? String)?.hasSuffix($0) == true } }.compactMap { $0["id"] as? Int })
                #expect(sample.count == 3)
                #expect(animated == sample.union([Int(id)]))
            }
            try await client.execute(uri: "/api/entries/\(id)", method: .get) { response in
                let sticker = try #require((response.json as? [String: Any])?["sticker"] as? [String: Any])
                let timing = try #require(sticker["animation"] as? [String: Any])
                #expect(timing["frames"] as? Int == 3 && timing["durationMs"] as? Int == 200 && timing["frameRate"] as? Double == 15)
            }
        }
    }

    @Test func previewIsAScaledJPEGAndAMissingSourceIs404() async throws {
        try await withServer { fixture, client in
            let id = fixture.stickerIds[0]
            try await client.execute(uri: "/api/photos/\(id)/preview.jpg?size=128", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(Array(response.body.readableBytesView.prefix(2)) == [0xFF, 0xD8])
            }
            try await client.execute(uri: "/api/photos/\(id)/preview.jpg?size=5", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            let path = try #require(try await fixture.repository.entry(id: id)?.path)
            try FileManager.default.removeItem(atPath: path)
            try await client.execute(uri: "/api/photos/\(id)/preview.jpg", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.errorCode == "source-missing")
                #expect(response.text.contains(path))
            }
        }
    }
}
