import Foundation
import SampleImages
import Testing

/// The segmentation model is a setting (`cutout.model`, u2net by default), chosen per run by
/// `--model` or `$STICKER_MODEL`; it is recorded with each sticker, a change makes stickers stale,
/// and a missing model is never replaced by the other one.
@Suite(.timeLimit(.minutes(15))) struct CutoutModelTests {
    /// The catalog's own choice: the harness's `STICKER_MODEL=u2netp` taken away.
    private let catalogsChoice = ["STICKER_MODEL": ""]

    /// Two sample photos (a model run each is all these tests need).
    private func twoPhotos(in folder: TemporaryFolder) throws -> String {
        for photo in try SamplePhotos.demoStills(width: 320, height: 240).prefix(2) {
            try folder.write(photo.bytes, to: "photos/" + photo.name)
        }
        return folder.path("photos")
    }

    private func model(of id: Int, in folder: TemporaryFolder) async throws -> String? {
        let show = try await CLI.run(["--catalog", "c.sqlite", "show", String(id), "--json"], in: folder)
        let detail = try #require(show.json as? [String: Any], "\(show.stderr)")
        return ((detail["sticker"] as? [String: Any])?["settings"] as? [String: Any])?["model"] as? String
    }

    @Test(.needsModel, .needsLargeModel) func aModelChangeMakesStickersStaleAndReprocessRemakesThemWithIt() async throws {
        let folder = try TemporaryFolder()
        let photos = try twoPhotos(in: folder)
        let imported = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--model", "u2netp"], in: folder, environment: catalogsChoice)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try await model(of: 1, in: folder) == "u2netp")
        let show = try await CLI.run(["--catalog", "c.sqlite", "show", "1"], in: folder)
        #expect(show.stdout.contains("model u2netp"), "\(show.stdout)")

        // The catalog's model is u2net (the default): what --model u2netp made is stale.
        let stale = try await CLI.run(["--catalog", "c.sqlite", "list", "--stale", "--json"], in: folder, environment: catalogsChoice)
        let entries = try #require(stale.json as? [[String: Any]], "\(stale.stderr)")
        #expect(entries.count == 2 && entries.allSatisfy { $0["reasons"] as? [String] == ["settings"] }, "\(stale.stdout)")

        let reprocess = try await CLI.run(["--catalog", "c.sqlite", "reprocess"], in: folder, environment: catalogsChoice)
        #expect(reprocess.status == 0, "\(reprocess.stderr)")
        let first = try await model(of: 1, in: folder), second = try await model(of: 2, in: folder)
        #expect(first == "u2net" && second == "u2net")
        let after = try await CLI.run(["--catalog", "c.sqlite", "list", "--stale", "--json"], in: folder, environment: catalogsChoice)
        #expect((after.json as? [Any])?.isEmpty == true, "\(after.stdout)")

        // Back to u2netp by the setting: stale again, and remade with u2netp.
        #expect(try await CLI.run(["--catalog", "c.sqlite", "config", "set", "cutout.model", "u2netp"], in: folder).status == 0)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "reprocess"], in: folder, environment: catalogsChoice).status == 0)
        #expect(try await model(of: 2, in: folder) == "u2netp")
    }

    @Test(.needsModel) func aMissingModelIsNeverReplacedByTheOther() async throws {
        let folder = try TemporaryFolder()
        let photos = try twoPhotos(in: folder)
        // A folder with u2netp only; the catalog's model is u2net.
        let models = folder.url.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        for file in ["u2netp.json", "u2netp.bin"] {
            try FileManager.default.createSymbolicLink(
                atPath: models.appendingPathComponent(file).path, withDestinationPath: try #require(InstalledModel.folder) + "/" + file
            )
        }
        let environment = ["STICKER_MODEL": "", "STICKER_MODEL_DIR": models.path]
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder, environment: environment)
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.contains("no segmentation model u2net (u2net.json and u2net.bin)") && run.stderr.contains(models.path), "\(run.stderr)")
        #expect(run.stderr.contains("--model u2netp"), "names the model that is there: \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")), "nothing written")
        let cutout = try await CLI.run(["cutout", photos + "/" + (try FileManager.default.contentsOfDirectory(atPath: photos).sorted()[0]), "-o", "s.png"],
                                 in: folder, environment: environment)
        #expect(cutout.status == 69, "\(cutout.stderr)")
        #expect(try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--model", "u2netp"], in: folder, environment: environment).status == 0)
    }

    @Test func unknownModelsAreUsageErrors() async throws {
        let folder = try TemporaryFolder()
        let photos = try twoPhotos(in: folder)
        let option = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--model", "u2big"], in: folder)
        #expect(option.status == 64 && option.stderr.contains("unknown --model 'u2big': expected u2net or u2netp"), "\(option.stderr)")
        let variable = try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder, environment: ["STICKER_MODEL": "u2big"])
        #expect(variable.status == 64 && variable.stderr.contains("STICKER_MODEL='u2big'"), "\(variable.stderr)")
        let setting = try await CLI.run(["--catalog", "c.sqlite", "config", "set", "cutout.model", "u2big"], in: folder)
        #expect(setting.status == 64 && setting.stderr.contains("invalid value 'u2big' for cutout.model: expected u2net or u2netp"), "\(setting.stderr)")
        let cutout = try await CLI.run(["cutout", "x.jpg", "-o", "x.png", "--model", "u2big"], in: folder)
        #expect(cutout.status == 64, "\(cutout.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")))
    }
}
