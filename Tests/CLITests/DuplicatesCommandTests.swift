import Foundation
import Processing
import Testing

/// `catalog duplicates`, the import's near-duplicate notes, `--distinct` and the pack warning, as a
/// user runs them, on stickers with their own transparency (no model needed to cut them out).
@Suite(.needsModel, .timeLimit(.minutes(15))) struct DuplicatesCommandTests {
    /// A 200 x 200 cut-out: transparent outside a shape drawn by `inside`, painted by `color`.
    private static func sticker(
        size: Int = 200, inside: (Double, Double) -> Bool, color: (Double, Double) -> (UInt8, UInt8, UInt8)
    ) -> RGBAImage {
        var pixels: [UInt8] = []
        for y in 0..<size {
            for x in 0..<size {
                let u = Double(x) / Double(size), v = Double(y) / Double(size)
                if inside(u, v) {
                    let (r, g, b) = color(u, v)
                    pixels += [r, g, b, 255]
                } else {
                    pixels += [255, 255, 255, 0]
                }
            }
        }
        return RGBAImage(width: size, height: size, pixels: pixels)
    }

    /// An orange house (a square and a roof) with a teal door, the same at half size, and a blue ball.
    private func catalog() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let house = Self.sticker(inside: { u, v in (0.2..<0.8).contains(u) && (v > 0.45 && v < 0.9 || v > 0.15 && v <= 0.45 && abs(u - 0.5) < v - 0.15) }) { u, v in
            (0.42..<0.58).contains(u) && v > 0.65 ? (0, 128, 128) : (240, UInt8(120 + 60 * v), 20)
        }
        let ball = Self.sticker(inside: { u, v in (u - 0.5) * (u - 0.5) + (v - 0.5) * (v - 0.5) < 0.12 }) { u, _ in (20, 40, UInt8(150 + 90 * u)) }
        try folder.write(try PNGCodec.encode(ImageResizer.resized(house, width: 100, height: 100)), to: "photos/a-house-shared.png")
        try folder.write(try PNGCodec.encode(house), to: "photos/b-house.png")
        try folder.write(try PNGCodec.encode(ball), to: "photos/c-ball.png")
        return folder
    }

    private func run(_ arguments: [String], in folder: TemporaryFolder) async throws -> CLIResult {
        try await CLI.run(["--catalog", "c.sqlite"] + arguments, in: folder)
    }

    @Test func importNotesTheCopyAndDuplicatesGroupsIt() async throws {
        let folder = try catalog()
        let imported = try await run(["import", folder.path("photos"), "--jobs", "1", "--json"], in: folder)
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        let events = imported.jsonLines
        let near = events.filter { $0["event"] as? String == "near-duplicate" }
        #expect(near.count == 1, "\(events)")
        #expect(near.first?["id"] as? Int == 2 && near.first?["of"] as? Int == 1)
        #expect((near.first?["path"] as? String)?.hasSuffix("b-house.png") == true)
        #expect(events.last?["imported"] as? Int == 3 && events.last?["nearDuplicates"] as? Int == 1)

        let listed = try await run(["duplicates", "--json"], in: folder)
        #expect(listed.status == 0, "stderr: \(listed.stderr)")
        let document = try #require(listed.json as? [String: Any])
        #expect(document["within"] as? Int == 7)
        let groups = try #require(document["groups"] as? [[String: Any]])
        #expect(groups.count == 1)
        // The larger photo is the best.
        #expect(groups.first?["best"] as? Int == 2 && groups.first?["bestChosenBy"] as? String == "rule")
        let members = try #require(groups.first?["members"] as? [[String: Any]])
        #expect(members.map { $0["id"] as? Int } == [2, 1])
        #expect(members.first?["distance"] as? Int == 0)

        let text = try await run(["duplicates"], in: folder)
        #expect(text.stdout.contains("Group 1: 2 entries, best #2"), "\(text.stdout)")

        let distinct = try await run(["list", "--distinct", "--json"], in: folder)
        #expect((distinct.json as? [[String: Any]])?.map { $0["id"] as? Int } == [2, 3])
        let search = try await run(["search", "--color", "#f08c14", "--distinct", "--ids"], in: folder)
        #expect(search.stdout.split(separator: "\n").count == 1, "\(search.stdout)")
    }

    @Test func decisionsAreKept() async throws {
        let folder = try catalog()
        #expect(try await run(["import", folder.path("photos"), "--jobs", "1"], in: folder).status == 0)
        let kept = try await run(["duplicates", "--keep", "1", "--json"], in: folder)
        #expect(kept.status == 0, "stderr: \(kept.stderr)")
        let group = try #require(((kept.json as? [String: Any])?["groups"] as? [[String: Any]])?.first)
        #expect(group["best"] as? Int == 1 && group["bestChosenBy"] as? String == "user")

        let lonely = try await run(["duplicates", "--keep", "3"], in: folder)
        #expect(lonely.status == 65 && lonely.stderr.contains("entry 3 is in no group"), "\(lonely.stderr)")

        let marked = try await run(["duplicates", "--not-duplicates", "1,2", "--json"], in: folder)
        #expect(marked.status == 0, "stderr: \(marked.stderr)")
        #expect(((marked.json as? [String: Any])?["groups"] as? [Any])?.isEmpty == true)
        #expect(try await run(["duplicates"], in: folder).stdout.hasPrefix("No near-duplicates within 7."))
        #expect(try await run(["duplicates", "--not-duplicates", "1,99"], in: folder).status == 65)
        #expect(try await run(["duplicates", "--not-duplicates", "1"], in: folder).status == 64)
        #expect(try await run(["duplicates", "--within", "17"], in: folder).status == 64)
    }

    @Test func packAddWarnsAboutNearDuplicatesUnlessAllowed() async throws {
        let folder = try catalog()
        #expect(try await run(["import", folder.path("photos"), "--jobs", "1"], in: folder).status == 0)
        #expect(try await run(["pack", "create", "houses"], in: folder).status == 0)
        let added = try await run(["pack", "add", "houses", "1", "3"], in: folder)
        #expect(added.status == 0 && !added.stderr.contains("near-duplicates"), "\(added.stderr)")
        let warned = try await run(["pack", "add", "houses", "2"], in: folder)
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("houses now holds #2 and #1, near-duplicates"), "\(warned.stderr)")
        #expect(try await run(["pack", "create", "quiet"], in: folder).status == 0)
        let quiet = try await run(["pack", "add", "quiet", "1", "2", "--allow-duplicates"], in: folder)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
}
