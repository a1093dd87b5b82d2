import Foundation
import PostgresTestSupport
import Processing
import SampleImages
import Testing

/// A photo with two subjects: a large orange one on the left (the automatic cut-out's choice) and a smaller
/// magenta one on the right, which a box picks.
enum TwoSubjects {
    static let width = 640, height = 360
    /// A box around the magenta subject, with some ground around it.
    static let rightBox = "380,70,250,220"
    static let orange = (240, 120, 20), magenta = (200, 40, 160)

    /// `edited`: the same photo with its ground a little lighter, as after an edit in place.
    static func write(to name: String, in folder: TemporaryFolder, cropped: Bool = false, edited: Bool = false) throws -> String {
        let left = SampleScene(
            width: width, height: height, background: .gradient(top: RGB(150, 200, 235), bottom: edited ? RGB(72, 122, 82) : RGB(60, 110, 70)),
            shape: .ellipse, subjectColor: RGB(240, 120, 20), centerX: 0.27, centerY: 0.5, radius: 0.32, seed: 3)
        var right = left
        right.centerX = 0.79
        right.radius = 0.2
        right.subjectColor = RGB(200, 40, 160)
        var photo = left.renderPhoto()
        let rightPhoto = right.renderPhoto(), rightMask = right.renderMask()
        for index in rightMask.indices where rightMask[index] > 0 {
            for channel in 0..<3 { photo.pixels[index * 4 + channel] = rightPhoto.pixels[index * 4 + channel] }
        }
        if cropped {
            // The left half only: the stored box no longer fits.
            let halfWidth = width / 2
            var pixels = [UInt8]()
            pixels.reserveCapacity(halfWidth * height * 4)
            for y in 0..<height {
                let row = y * width * 4
                pixels.append(contentsOf: photo.pixels[row..<(row + halfWidth * 4)])
            }
            photo = RGBAImage(width: halfWidth, height: height, pixels: pixels)
        }
        return try folder.write(try PNGCodec.encode(photo), to: name)
    }

    /// Which subject the entry's palette shows most of: its first colour nearer orange or magenta.
    static func dominantSubject(_ entry: [String: Any]) throws -> String {
        let palette = try #require(entry["palette"] as? [[String: Any]])
        func share(near target: (Int, Int, Int)) -> Double {
            palette.reduce(0) { sum, colour in
                guard let hex = colour["hex"] as? String, let value = Int(hex.dropFirst(), radix: 16) else { return sum }
                let r = value >> 16, g = (value >> 8) & 255, b = value & 255
                let near = abs(r - target.0) + abs(g - target.1) + abs(b - target.2) < 90
                return sum + (near ? (colour["share"] as? Double ?? 0) : 0)
            }
        }
        let orange = share(near: Self.orange), magenta = share(near: Self.magenta)
        return orange > magenta ? "orange" : magenta > orange ? "magenta" : "neither"
    }
}

/// `catalog recut` on one back end: guidance stored and applied at once, kept by reprocess, import and copy,
/// refused with nothing written when the values, the source or the entry are wrong.
struct RecutScenario {
    let catalog: String
    let folder: TemporaryFolder

    func run(_ arguments: [String]) async throws -> CLIResult {
        try await CLI.run(["--catalog", catalog] + arguments, in: folder)
    }

    func entry(_ id: Int = 1) async throws -> [String: Any] {
        let show = try await run(["show", "\(id)", "--json"])
        try #require(show.status == 0, "\(show.stderr)")
        return try #require(show.json as? [String: Any])
    }

    func guidanceIsStoredAppliedAndKept(copyTo other: String) async throws {
        let photo = try TwoSubjects.write(to: "photos/two.png", in: folder)
        let imported = try await run(["import", folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        #expect(try await TwoSubjects.dominantSubject(entry()) == "orange", "the automatic cut-out takes the larger subject")

        let recut = try await run(["recut", "1", "--box", TwoSubjects.rightBox])
        #expect(recut.status == 0, "\(recut.stderr)")
        #expect(recut.stdout.contains("Guidance  box \(TwoSubjects.rightBox)"), "\(recut.stdout)")
        var stored = try await entry()
        #expect(try TwoSubjects.dominantSubject(stored) == "magenta", "\(stored["palette"] ?? "")")
        let box = try #require((stored["guidance"] as? [String: Any])?["box"] as? [String: Any], "\(stored)")
        #expect(box["x"] as? Int == 380 && box["y"] as? Int == 70 && box["width"] as? Int == 250 && box["height"] as? Int == 220)
        let shown = try await run(["show", "1"]).stdout
        #expect(shown.contains("Guidance     box \(TwoSubjects.rightBox)") || shown.contains("box \(TwoSubjects.rightBox)"))

        // Points add to the stored guidance; the box stays.
        let point = try await run(["recut", "1", "--include", "500,180", "--json"])
        #expect(point.status == 0, "\(point.stderr)")
        stored = try #require(point.json as? [String: Any])
        let guidance = try #require(stored["guidance"] as? [String: Any])
        #expect((guidance["include"] as? [[String: Any]])?.count == 1 && guidance["box"] is [String: Any], "\(guidance)")

        // Every later cut-out applies it: a reprocess of everything, and the copy.
        #expect(try await run(["reprocess", "--all", "--quiet"]).status == 0)
        #expect(try await TwoSubjects.dominantSubject(entry()) == "magenta")
        #expect(try await entry()["guidance"] as? [String: Any] != nil)
        let copy = try await run(["copy", "--to", other])
        #expect(copy.status == 0, "\(copy.stderr)")
        let copied = try await RecutScenario(catalog: other, folder: folder).entry()
        #expect(copied["guidance"] as? NSDictionary == stored["guidance"] as? NSDictionary, "\(copied)")
        // The copy re-makes the guided sticker, not the automatic one.
        #expect(try await RecutScenario(catalog: other, folder: folder).run(["reprocess", "--all", "--quiet"]).status == 0)
        #expect(try await TwoSubjects.dominantSubject(RecutScenario(catalog: other, folder: folder).entry()) == "magenta")

        // An edit in place that keeps the size keeps the guidance; one that crops the photo fails as
        // invalid-guidance, and --reset is the way out.
        _ = try TwoSubjects.write(to: "photos/two.png", in: folder, cropped: true)
        let reimport = try await run(["import", folder.path("photos"), "--json"])
        #expect([1, 65].contains(reimport.status), "\(reimport.stdout)")
        #expect(reimport.stdout.contains("invalid-guidance"), "\(reimport.stdout)")
        let failed = try await entry()
        #expect((failed["failure"] as? [String: Any])?["code"] as? String == "invalid-guidance", "\(failed)")
        #expect(failed["guidance"] as? [String: Any] != nil, "what a person set is not dropped")
        let reset = try await run(["recut", "1", "--reset"])
        #expect(reset.status == 0, "\(reset.stderr)")
        let after = try await entry()
        #expect(after["guidance"] is NSNull && after["status"] as? String == "ok", "\(after)")
        #expect(after["width"] as? Int == TwoSubjects.width / 2)
        _ = photo
    }

    func refusalsLeaveTheEntryAsItWas() async throws {
        let photo = try TwoSubjects.write(to: "photos/two.png", in: folder)
        try #require(try await run(["import", folder.path("photos")]).status == 0)
        let before = try await entry()
        for (arguments, status, message) in [
            (["recut", "1", "--box", "600,300,100,100"], 64, "box 600,300,100,100 is outside the photo (640 x 360 pixels upright"),
            (["recut", "1", "--exclude", "640,10"], 64, "outside the photo"),
            (["recut", "1", "--box", "1,2,0,5"], 64, "--box"),
            (["recut", "1", "--include", "x,5"], 64, "--include"),
            (["recut", "9"], 65, "9"),
            (["recut", "1", "--box", "0,0,40,40"], 65, "no subject"),
        ] {
            let refused = try await run(arguments)
            #expect(refused.status == Int32(status), "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        // The source's bytes changed: reprocess first.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: photo))
        bytes.append(contentsOf: [0, 0, 0, 0])
        try bytes.write(to: URL(fileURLWithPath: photo))
        let changed = try await run(["recut", "1", "--box", TwoSubjects.rightBox])
        #expect(changed.status == 65 && changed.stderr.contains("catalog reprocess"), "\(changed.stderr)")
        try FileManager.default.removeItem(atPath: photo)
        let missing = try await run(["recut", "1", "--box", TwoSubjects.rightBox])
        #expect(missing.status == 74 && missing.stderr.contains(photo), "\(missing.stderr)")

        let after = try await entry()
        #expect(after["guidance"] is NSNull)
        #expect((after["sticker"] as? NSDictionary) == (before["sticker"] as? NSDictionary))
        #expect((after["palette"] as? NSArray) == (before["palette"] as? NSArray))
    }
}

@Suite(.needsModel, .timeLimit(.minutes(15)))
struct RecutCommandTests {
    @Test func guidanceIsStoredAppliedAndKept() async throws {
        let folder = try TemporaryFolder()
        try await RecutScenario(catalog: "c.sqlite", folder: folder).guidanceIsStoredAppliedAndKept(copyTo: "copy.sqlite")
    }

    @Test func refusalsLeaveTheEntryAsItWas() async throws {
        try await RecutScenario(catalog: "c.sqlite", folder: try TemporaryFolder()).refusalsLeaveTheEntryAsItWas()
    }

    @Test func withoutTheModelNothingIsTouched() async throws {
        let folder = try TemporaryFolder()
        _ = try TwoSubjects.write(to: "photos/two.png", in: folder)
        try #require(try await CLI.run(["--catalog", "c.sqlite", "import", folder.path("photos")], in: folder).status == 0)
        let run = try await CLI.run(["--catalog", "c.sqlite", "recut", "1", "--box", TwoSubjects.rightBox], in: folder,
                              environment: ["STICKER_MODEL_DIR": "/nonexistent-model-folder", "XDG_DATA_HOME": folder.path("none")])
        #expect(run.status == 69, "\(run.stderr)")
        #expect(try await RecutScenario(catalog: "c.sqlite", folder: folder).entry()["guidance"] is NSNull)
    }
}

extension RecutCommandTests {
    @Test(.needsLargeModel) func guidanceSurvivesAModelChange() async throws {
        let folder = try TemporaryFolder()
        let scenario = RecutScenario(catalog: "c.sqlite", folder: folder)
        _ = try TwoSubjects.write(to: "photos/two.png", in: folder)
        try #require(try await scenario.run(["import", folder.path("photos")]).status == 0)
        try #require(try await scenario.run(["recut", "1", "--box", TwoSubjects.rightBox]).status == 0)
        let reprocess = try await CLI.run(["--catalog", "c.sqlite", "reprocess", "--model", "u2net"], in: folder)
        #expect(reprocess.status == 0, "\(reprocess.stderr)")
        let entry = try await scenario.entry()
        #expect(((entry["sticker"] as? [String: Any])?["settings"] as? [String: Any])?["model"] as? String == "u2net", "\(entry)")
        #expect(entry["guidance"] as? [String: Any] != nil)
        #expect(try TwoSubjects.dominantSubject(entry) == "magenta")
    }
}

@Suite(.needsModel, .enabled(if: TestPostgresServer.isAvailable, "PostgreSQL is not installed (make test installs it)"), .timeLimit(.minutes(15)))
struct PostgresRecutCommandTests {
    @Test func guidanceIsStoredAppliedAndKept() async throws {
        let server = try TestPostgresServer.server
        let postgres = server.address(database: try await server.makeDatabase())
        try await RecutScenario(catalog: postgres, folder: try TemporaryFolder()).guidanceIsStoredAppliedAndKept(copyTo: "copy.sqlite")
    }

    @Test func refusalsLeaveTheEntryAsItWas() async throws {
        let server = try TestPostgresServer.server
        let postgres = server.address(database: try await server.makeDatabase())
        try await RecutScenario(catalog: postgres, folder: try TemporaryFolder()).refusalsLeaveTheEntryAsItWas()
    }

    /// SQLite → PostgreSQL → SQLite keeps the guidance, and `work` applies it to the file edited in place.
    @Test func guidanceTravelsToPostgreSQLAndBackAndWorkAppliesIt() async throws {
        let server = try TestPostgresServer.server
        let postgres = server.address(database: try await server.makeDatabase())
        let folder = try TemporaryFolder()
        let local = RecutScenario(catalog: "c.sqlite", folder: folder), shared = RecutScenario(catalog: postgres, folder: folder)
        _ = try TwoSubjects.write(to: "photos/two.png", in: folder)
        try #require(try await local.run(["import", folder.path("photos")]).status == 0)
        try #require(try await local.run(["recut", "1", "--box", TwoSubjects.rightBox, "--exclude", "10,10"]).status == 0)
        let guided = try await local.entry()["guidance"] as? NSDictionary
        #expect(guided != nil)
        #expect(try await local.run(["copy", "--to", postgres]).status == 0)
        #expect(try await shared.entry()["guidance"] as? NSDictionary == guided)

        _ = try TwoSubjects.write(to: "photos/two.png", in: folder, edited: true)
        let enqueued = try await shared.run(["import", "--enqueue", folder.path("photos")])
        #expect(enqueued.status == 0, "\(enqueued.stderr)")
        let work = try await shared.run(["work", "--quiet"])
        #expect(work.status == 0, "\(work.stderr)")
        let worked = try await shared.entry()
        #expect(worked["guidance"] as? NSDictionary == guided && worked["status"] as? String == "ok", "\(worked)")
        await #expect(worked["sha256"] as? String != (try local.entry()["sha256"] as? String), "work took in the edited file")
        #expect(try TwoSubjects.dominantSubject(worked) == "magenta")

        #expect(try await shared.run(["copy", "--to", "back.sqlite"]).status == 0)
        #expect(try await RecutScenario(catalog: "back.sqlite", folder: folder).entry()["guidance"] as? NSDictionary == guided)
    }
}
