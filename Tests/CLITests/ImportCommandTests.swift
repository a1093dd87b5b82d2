import Foundation
import Processing
import SampleImages
import Testing

/// `catalog import` end to end: the real binary, a temporary folder, exit codes and JSON.
@Suite(.needsModel, .timeLimit(.minutes(15))) struct ImportCommandTests {
    @Test func importsSamplesThenReimportIsANoOp() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let sampleCount = try SamplePhotos.demoStills(width: 320, height: 240).count

        let first = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--json"], in: folder)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let events = first.jsonLines
        #expect(events.filter { $0["event"] as? String == "imported" }.count == sampleCount)
        let summary = try #require(events.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["imported"] as? Int == sampleCount)
        #expect(summary["failed"] as? Int == 0)

        let second = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--json"], in: folder)
        #expect(second.status == 0)
        #expect(second.jsonLines.last?["duplicates"] as? Int == sampleCount)
        #expect(second.jsonLines.last?["imported"] as? Int == 0)

        let list = try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder)
        #expect(list.status == 0)
        let entries = try #require(list.json as? [[String: Any]])
        #expect(entries.count == sampleCount)
        #expect(Set(entries.compactMap { $0["sha256"] as? String }).count == sampleCount)
        #expect(entries.allSatisfy { Set($0.keys) == ["id", "sha256", "path", "status"] })

        // Every sticker is a pipeline-1 cut-out made with the default settings.
        for id in 1...sampleCount {
            let detail = try #require(try await CLI.run(["--catalog", "c.sqlite", "show", "\(id)", "--json"], in: folder).json as? [String: Any])
            let sticker = try #require(detail["sticker"] as? [String: Any])
            #expect(sticker["pipelineVersion"] as? Int == PhotoProcessor.pipelineVersion)
            #expect((sticker["settings"] as? [String: Any])?["outline"] as? Int == 8)
            // 320 x 240 photos are too small for 512: each subject is enlarged at most twice.
            #expect((240...512).contains(max(sticker["width"] as? Int ?? 0, sticker["height"] as? Int ?? 0)))
        }
    }

    @Test func movedFileIsRecognisedByItsBytes() async throws {
        let folder = try TemporaryFolder()
        let photo = try #require(SamplePhotos.demoStills(width: 320, height: 240).first)
        let original = try folder.write(photo.bytes, to: "a/photo.jpg")
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", original], in: folder).status == 0)

        let moved = folder.path("b/renamed.jpg")
        try FileManager.default.createDirectory(atPath: folder.path("b"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: original, toPath: moved)
        let again = try await CLI.run(["--catalog", "c.sqlite", "import", moved, "--json"], in: folder)
        #expect(again.status == 0)
        let event = try #require(again.jsonLines.first)
        #expect(event["event"] as? String == "duplicate")
        #expect(event["moved"] as? Bool == true)

        let show = try await CLI.run(["--catalog", "c.sqlite", "show", "1", "--json"], in: folder)
        let detail = try #require(show.json as? [String: Any])
        #expect(detail["path"] as? String == moved)
    }

    @Test func aSecondCopyDoesNotMoveTheEntry() async throws {
        let folder = try TemporaryFolder()
        let photo = try #require(SamplePhotos.demoStills(width: 320, height: 240).first)
        let original = try folder.write(photo.bytes, to: "a/photo.jpg")
        let copy = try folder.write(photo.bytes, to: "b/photo.jpg")
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", original], in: folder).status == 0)
        let again = try await CLI.run(["--catalog", "c.sqlite", "import", copy, "--json"], in: folder)
        #expect(again.jsonLines.first?["moved"] as? Bool == false)
        let detail = try #require(try await CLI.run(["--catalog", "c.sqlite", "show", "1", "--json"], in: folder).json as? [String: Any])
        #expect(detail["path"] as? String == original)
    }

    @Test func brokenFilesAreRecordedAndTheRestImported() async throws {
        let folder = try TemporaryFolder()
        let photo = try #require(SamplePhotos.demoStills(width: 320, height: 240).first)
        try folder.write(photo.bytes, to: "in/good.jpg")
        try folder.write(Array(photo.bytes.prefix(photo.bytes.count / 2)), to: "in/truncated.jpg")
        try folder.write(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 40), to: "in/animation.gif")
        try folder.write(Array("just some notes\n".utf8), to: "in/notes.jpg")

        let run = try await CLI.run(["--catalog", "c.sqlite", "import", folder.path("in"), "--json"], in: folder)
        #expect(run.status == 1, "some failed, some imported: exit 1")
        var codes: [String: String] = [:]
        for event in run.jsonLines where event["event"] as? String == "failed" {
            let error = try #require(event["error"] as? [String: Any])
            codes[URL(fileURLWithPath: event["path"] as? String ?? "").lastPathComponent] = error["code"] as? String
            #expect((error["message"] as? String)?.isEmpty == false)
            #expect(event["id"] is Int, "failed files are recorded as entries")
        }
        #expect(codes == ["truncated.jpg": "truncated", "animation.gif": "unsupported-format", "notes.jpg": "unsupported-format"])

        let failed = try await CLI.run(["--catalog", "c.sqlite", "list", "--failed", "--json"], in: folder)
        #expect((failed.json as? [[String: Any]])?.count == 3)
        let human = try await CLI.run(["--catalog", "c.sqlite", "import", folder.path("in/truncated.jpg"), folder.path("in/animation.gif")], in: folder)
        #expect(human.status == 65, "a file that failed before fails again, and the exit code says so")
        #expect(human.stdout.contains("2 failed"), "\(human.stdout)")
        #expect(human.stderr.contains("truncated.jpg") && human.stderr.contains("[truncated]"), "\(human.stderr)")
    }

    @Test func nothingUsableExits65AndNamesTheFile() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(Array("not an image".utf8), to: "readme.txt")
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", path], in: folder)
        #expect(run.status == 65)
        #expect(run.stderr.contains("readme.txt"))
        #expect(run.stderr.contains("unsupported format"))

        let missing = try await CLI.run(["--catalog", "c.sqlite", "import", folder.path("nowhere")], in: folder)
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("nowhere"))
    }

    @Test func pixelLimitRefusesBeforeDecoding() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--max-pixels", "1000", "--json"], in: folder)
        #expect(run.status == 65)
        let codes = Set(run.jsonLines.compactMap { ($0["error"] as? [String: Any])?["code"] as? String })
        #expect(codes == ["too-large"])
    }

    @Test func dryRunWritesNothing() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--dry-run", "--json"], in: folder)
        #expect(run.status == 0)
        #expect(run.jsonLines.last?["imported"] as? Int ?? 0 > 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")))
    }

    @Test func usageErrorsExit64() async throws {
        let folder = try TemporaryFolder()
        for arguments in [["import"], ["import", "x", "--jobs", "0"], ["import", "--no-such-flag", "x"], ["show", "abc"], ["frobnicate"]] {
            let run = try await CLI.run(["--catalog", "c.sqlite"] + arguments, in: folder)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")), "a usage error touches nothing")
    }

    @Test func binaryCarriesItsMigrations() async throws {
        let folder = try TemporaryFolder()
        let lonely = folder.url.appendingPathComponent("bin/catalog")
        try await CLI.copyBinary(to: lonely)
        let photos = try folder.writeSamples()
        let run = try await CLI.run(["--catalog", folder.path("bin/c.sqlite"), "import", photos], in: folder, executable: lonely)
        #expect(run.status == 0, "stderr: \(run.stderr)")
    }

    @Test func catalogLocationFollowsEnvironment() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let viaPath = try await CLI.run(["import", photos], in: folder, environment: ["CATALOG_PATH": folder.path("env.sqlite")])
        #expect(viaPath.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("env.sqlite")))

        let viaXDG = try await CLI.run(["import", photos], in: folder, environment: ["XDG_DATA_HOME": folder.path("xdg")])
        #expect(viaXDG.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("xdg/sticker-catalog/catalog.sqlite")))

        let viaHome = try await CLI.run(["import", photos], in: folder)
        #expect(viaHome.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path(".local/share/sticker-catalog/catalog.sqlite")))
    }
}
