import Foundation
import SampleImages
import Testing

/// `catalog reprocess` and `catalog list --stale`: every stale reason, --all, --dry-run, on the real binary.
@Suite(.needsModel, .timeLimit(.minutes(15))) struct ReprocessCommandTests {
    /// A catalog with the demo samples imported; returns the photos' folder.
    private func importedSamples(in folder: TemporaryFolder) async throws -> String {
        let photos = try folder.writeSamples()
        let result = try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder)
        try #require(result.status == 0, "stderr: \(result.stderr)")
        return photos
    }

    private func catalog(_ arguments: String..., in folder: TemporaryFolder) async throws -> CLIResult {
        try await CLI.run(["--catalog", "c.sqlite"] + arguments, in: folder)
    }

    /// `list --stale --json` as id -> reasons.
    private func stale(in folder: TemporaryFolder) async throws -> [Int: [String]] {
        let result = try await catalog("list", "--stale", "--json", in: folder)
        try #require(result.status == 0, "stderr: \(result.stderr)")
        let entries = try #require(result.json as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: entries.map { ($0["id"] as? Int ?? -1, $0["reasons"] as? [String] ?? []) })
    }

    private func detail(_ id: Int, in folder: TemporaryFolder) async throws -> [String: Any] {
        let result = try await catalog("show", "\(id)", "--json", in: folder)
        try #require(result.status == 0, "stderr: \(result.stderr)")
        return try #require(result.json as? [String: Any])
    }

    private func events(_ result: CLIResult, _ name: String) -> [[String: Any]] {
        result.jsonLines.filter { $0["event"] as? String == name }
    }

    private func entryCount(in folder: TemporaryFolder) async throws -> Int {
        await (try catalog("list", "--json", in: folder).json as? [Any])?.count ?? 0
    }

    @Test func upToDateCatalogHasNothingToDo() async throws {
        let folder = try TemporaryFolder()
        _ = try await importedSamples(in: folder)
        #expect(try await stale(in: folder).isEmpty)
        let run = try await catalog("reprocess", "--json", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.jsonLines.count == 1)
        let summary = try #require(run.jsonLines.last)
        #expect(summary["event"] as? String == "summary")
        #expect(Set(summary.keys) == ["event", "reprocessed", "refreshed", "failed", "missing", "duplicates", "left", "interrupted"])
        #expect(summary["reprocessed"] as? Int == 0)
        #expect(try await catalog("reprocess", in: folder).stdout == "Nothing to reprocess: every entry is up to date.\n")
    }

    @Test(arguments: [("sticker.size", "256"), ("palette.colors", "3"), ("sticker.outline", "0"), ("sticker.shadow", "true")])
    func aSettingsChangeMakesEveryStickerStaleAndReprocessRemakesThem(key: String, value: String) async throws {
        let folder = try TemporaryFolder()
        _ = try await importedSamples(in: folder)
        let count = try await entryCount(in: folder)
        #expect(try await catalog("config", "set", key, value, in: folder).status == 0)

        let before = try await stale(in: folder)
        #expect(before.count == count)
        #expect(before.values.allSatisfy { $0 == ["settings"] })

        let run = try await catalog("reprocess", "--json", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let reprocessed = events(run, "reprocessed")
        #expect(reprocessed.count == count)
        #expect(reprocessed.allSatisfy { $0["reasons"] as? [String] == ["settings"] })
        #expect(run.jsonLines.last?["reprocessed"] as? Int == count)
        #expect(try await stale(in: folder).isEmpty)

        let sticker = try #require(try await detail(1, in: folder)["sticker"] as? [String: Any])
        let settings = try #require(sticker["settings"] as? [String: Any])
        let stored = ["sticker.size": "size", "palette.colors": "paletteColors", "sticker.outline": "outline", "sticker.shadow": "shadow"][key]!
        #expect("\(settings[stored]!)" == (value == "true" ? "1" : value))
        if key == "sticker.size" {
            #expect(max(sticker["width"] as? Int ?? 0, sticker["height"] as? Int ?? 0) == 256)
        }
        // A re-run has nothing left to do.
        #expect(try await catalog("reprocess", "--json", in: folder).jsonLines.last?["reprocessed"] as? Int == 0)
    }

    @Test func importUsesTheCatalogsSettings() async throws {
        let folder = try TemporaryFolder()
        #expect(try await catalog("config", "set", "sticker.size", "200", in: folder).status == 0)
        _ = try await importedSamples(in: folder)
        let sticker = try #require(try await detail(1, in: folder)["sticker"] as? [String: Any])
        #expect((sticker["settings"] as? [String: Any])?["size"] as? Int == 200)
        #expect(try await stale(in: folder).isEmpty)
    }

    @Test func aTouchedFileIsNotStaleAndItsNewTimeIsRecorded() async throws {
        let folder = try TemporaryFolder()
        let photos = try await importedSamples(in: folder)
        let path = photos + "/orange-ball-tokyo.jpg"
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: path)

        // (No `list --stale` first: it would record the new time itself, see the next test.)
        let run = try await catalog("reprocess", "--json", in: folder)
        #expect(run.status == 0)
        let refreshed = events(run, "refreshed")
        #expect(refreshed.count == 1)
        #expect(refreshed.first?["path"] as? String == path)
        #expect(events(run, "reprocessed").isEmpty)
        // The new time was recorded: the file is not hashed (or reported) again.
        #expect(try await catalog("reprocess", "--json", in: folder).jsonLines.count == 1)
        #expect(try await stale(in: folder).isEmpty)
    }

    @Test func listStaleRecordsATouchedFilesNewTimeSoItIsNotHashedAgain() async throws {
        let folder = try TemporaryFolder()
        let photos = try await importedSamples(in: folder)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: photos + "/orange-ball-tokyo.jpg")

        #expect(try await stale(in: folder).isEmpty)
        // list --stale hashed the file, found the same bytes and recorded its new time, as reprocess
        // would: reprocess now has nothing to look at, not even a touched file to refresh.
        let run = try await catalog("reprocess", "--json", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.jsonLines.count == 1)
        #expect(run.jsonLines.last?["refreshed"] as? Int == 0)
        #expect(try await stale(in: folder).isEmpty)
    }

    @Test func aChangedSourceIsReReadFromItsNewBytes() async throws {
        let folder = try TemporaryFolder()
        let photos = try await importedSamples(in: folder)
        let path = photos + "/orange-ball-tokyo.jpg"
        let id = try #require(try await entryID(path: path, in: folder))
        let old = try await detail(id, in: folder)
        let newer = try #require(SamplePhotos.demoStills(width: 400, height: 300).first { $0.name == "orange-ball-tokyo.jpg" })
        try Data(newer.bytes).write(to: URL(fileURLWithPath: path))

        #expect(try await stale(in: folder) == [id: ["source-changed"]])
        let run = try await catalog("reprocess", "--json", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(events(run, "reprocessed").map { $0["reasons"] as? [String] } == [["source-changed"]])
        let new = try await detail(id, in: folder)
        #expect(new["sha256"] as? String != old["sha256"] as? String)
        #expect(new["width"] as? Int == 400 && new["height"] as? Int == 300)
        #expect(try await stale(in: folder).isEmpty)
        #expect(try await entryCount(in: folder) == SamplePhotos.demoStills(width: 320, height: 240).count)
    }

    @Test func aSourceChangedToAnotherEntrysBytesLeavesTheEntryAsItIs() async throws {
        let folder = try TemporaryFolder()
        let photos = try await importedSamples(in: folder)
        let path = photos + "/orange-ball-tokyo.jpg"
        let id = try #require(try await entryID(path: path, in: folder))
        let otherPath = photos + "/red-blob-sydney.jpg"
        let other = try #require(try await entryID(path: otherPath, in: folder))
        let old = try await detail(id, in: folder)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: otherPath, toPath: path)

        let run = try await catalog("reprocess", "--json", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let duplicate = try #require(events(run, "duplicate").first)
        #expect(duplicate["id"] as? Int == id && duplicate["duplicateOf"] as? Int == other && duplicate["removed"] as? Bool == false)
        #expect(try await detail(id, in: folder)["sha256"] as? String == old["sha256"] as? String)
        let text = try await catalog("reprocess", in: folder)
        #expect(text.stderr.contains("its bytes changed to those of entry \(other)"))
    }

    @Test func undecodableFilesStayFailedUntilTheirBytesChange() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(Array("not a photo".utf8), to: "photos/broken.jpg")
        #expect(try await catalog("import", path, in: folder).status == 65)
        #expect(try await stale(in: folder).isEmpty)
        #expect(try await catalog("reprocess", "--json", in: folder).jsonLines.count == 1)

        let photo = try #require(SamplePhotos.demoStills(width: 320, height: 240).first { $0.name.hasSuffix(".jpg") })
        try Data(photo.bytes).write(to: URL(fileURLWithPath: path))
        #expect(try await stale(in: folder) == [1: ["source-changed"]])
        let run = try await catalog("reprocess", "--json", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try await detail(1, in: folder)["status"] as? String == "ok")
    }

    @Test func aRetriableFailureIsStaleAndRetried() async throws {
        let folder = try TemporaryFolder()
        let photo = try #require(SamplePhotos.demoStills(width: 320, height: 240).first { $0.name.hasSuffix(".jpg") })
        let path = try folder.write(photo.bytes, to: "photos/large.jpg")
        // Refused by a low --max-pixels at import: a limit, not the bytes, so reprocess (default limit) retries it.
        #expect(try await catalog("import", path, "--max-pixels", "1000", in: folder).status == 65)
        #expect(try await detail(1, in: folder)["status"] as? String == "failed")
        #expect(try await stale(in: folder) == [1: ["failed"]])
        let run = try await catalog("reprocess", "--json", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(events(run, "reprocessed").map { $0["reasons"] as? [String] } == [["failed"]])
        let entry = try await detail(1, in: folder)
        #expect(entry["status"] as? String == "ok")
        #expect(entry["failure"] is NSNull)
        #expect(entry["sticker"] is [String: Any])
    }

    @Test func aMissingSourceIsReportedNotAnError() async throws {
        let folder = try TemporaryFolder()
        let photos = try await importedSamples(in: folder)
        let path = photos + "/orange-ball-tokyo.jpg"
        let id = try #require(try await entryID(path: path, in: folder))
        try FileManager.default.removeItem(atPath: path)
        // Up to date and missing: nothing to do, nothing reported.
        #expect(try await stale(in: folder).isEmpty)

        #expect(try await catalog("config", "set", "sticker.size", "256", in: folder).status == 0)
        #expect(try await stale(in: folder)[id] == ["settings", "source-missing"])
        let run = try await catalog("reprocess", "--json", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let missing = events(run, "missing")
        #expect(missing.count == 1 && missing.first?["id"] as? Int == id)
        #expect(missing.first?["reasons"] as? [String] == ["settings", "source-missing"])
        #expect(run.jsonLines.last?["missing"] as? Int == 1)
        await #expect(events(run, "reprocessed").count == (try entryCount(in: folder)) - 1)
        await #expect(((try detail(id, in: folder)["sticker"] as? [String: Any])?["settings"] as? [String: Any])?["size"] as? Int == 512)
        let text = try await catalog("reprocess", in: folder)
        #expect(text.status == 0)
        #expect(text.stderr.contains("\(path) (entry \(id)): source missing"))
    }

    @Test func allReprocessesEveryEntry() async throws {
        let folder = try TemporaryFolder()
        _ = try await importedSamples(in: folder)
        let count = try await entryCount(in: folder)
        let run = try await catalog("reprocess", "--all", "--jobs", "2", "--json", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(events(run, "reprocessed").count == count)
        #expect(events(run, "reprocessed").allSatisfy { ($0["reasons"] as? [String])?.isEmpty == true })
        #expect(try await entryCount(in: folder) == count)
    }

    @Test func dryRunWritesNothing() async throws {
        let folder = try TemporaryFolder()
        let photos = try await importedSamples(in: folder)
        #expect(try await catalog("config", "set", "sticker.size", "300", in: folder).status == 0)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: photos + "/red-blob-sydney.jpg")
        let count = try await entryCount(in: folder)
        let before = try catalogFiles(in: folder)
        let shown = try await catalog("show", "1", "--json", in: folder).stdout

        let dry = try await catalog("reprocess", "--dry-run", "--json", in: folder)
        #expect(dry.status == 0, "stderr: \(dry.stderr)")
        #expect(events(dry, "reprocessed").count == count)
        #expect(dry.jsonLines.last?["reprocessed"] as? Int == count)
        #expect(try catalogFiles(in: folder) == before)
        #expect(try await catalog("show", "1", "--json", in: folder).stdout == shown)
        #expect(try await stale(in: folder).count == count)
        let text = try await catalog("reprocess", "--dry-run", in: folder)
        #expect(text.stdout.hasPrefix("Would reprocess \(count)"))
    }

    @Test func aMissingCatalogIsAnErrorAndIsNotCreated() async throws {
        let folder = try TemporaryFolder()
        let run = try await catalog("reprocess", in: folder)
        #expect(run.status == 74)
        #expect(run.stderr.contains("There is no catalog at"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")))
    }

    @Test func badJobsIsAUsageError() async throws {
        let folder = try TemporaryFolder()
        #expect(try await catalog("reprocess", "--jobs", "0", in: folder).status == 64)
    }

    // MARK: -

    private func entryID(path: String, in folder: TemporaryFolder) async throws -> Int? {
        let list = try await catalog("list", "--json", in: folder).json as? [[String: Any]]
        return list?.first { $0["path"] as? String == path }?["id"] as? Int
    }

    /// The catalog's files and their bytes' digests (the main file, the WAL), to prove nothing was written.
    private func catalogFiles(in folder: TemporaryFolder) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["c.sqlite", "c.sqlite-wal"] where FileManager.default.fileExists(atPath: folder.path(name)) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder.path(name)))
        }
        return files
    }
}
