import Foundation
import SampleImages
import Testing

/// `catalog import` needs the segmentation model: without it (or with a damaged one) it refuses
/// up front with exit 69, says where it looked and how to install it, and writes nothing.
@Suite(.timeLimit(.minutes(15))) struct ModelRequirementTests {
    @Test(arguments: [false, true])
    func missingModelExits69AndWritesNothing(dryRun: Bool) async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos] + (dryRun ? ["--dry-run"] : []), in: folder,
                              environment: ["STICKER_MODEL_DIR": folder.path("no-model-here")])
        #expect(run.status == 69, "stderr: \(run.stderr)")
        #expect(run.stderr.contains(folder.path("no-model-here")), "says where it looked: \(run.stderr)")
        #expect(run.stderr.contains("make model") && run.stderr.contains("STICKER_MODEL_DIR"), "says how to install it")
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")), "no catalog created")
    }

    @Test func defaultLocationIsTheDataFolder() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder,
                              environment: ["STICKER_MODEL_DIR": "", "XDG_DATA_HOME": folder.path("data")])
        #expect(run.status == 69)
        #expect(run.stderr.contains(folder.path("data") + "/sticker-catalog/models"), "\(run.stderr)")
    }

    @Test func damagedModelIsAClearError() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        try folder.write(Array(#"{"format":"sticker-nn-graph","version":1}"#.utf8), to: "model/u2netp.json")
        try folder.write([UInt8](repeating: 0, count: 64), to: "model/u2netp.bin")
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder, environment: ["STICKER_MODEL_DIR": folder.path("model")])
        #expect(run.status == 69)
        #expect(run.stderr.contains("damaged") && run.stderr.contains(folder.path("model")), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")))
    }

    /// A copy of the binary as `make install` lays it out: PREFIX/bin/catalog (a copy, not a link:
    /// the program finds PREFIX from its own resolved path); returns PREFIX.
    private func installedCopy(in folder: TemporaryFolder) async throws -> URL {
        let prefix = folder.url.appendingPathComponent("prefix")
        try await CLI.copyBinary(to: prefix.appendingPathComponent("bin/catalog"))
        return prefix
    }

    @Test func exit69NamesEveryPlaceItLooked() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let prefix = try await installedCopy(in: folder)
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder,
                              environment: ["STICKER_MODEL_DIR": "", "XDG_DATA_HOME": folder.path("data")],
                              executable: prefix.appendingPathComponent("bin/catalog"))
        #expect(run.status == 69)
        #expect(run.stderr.contains(folder.path("data") + "/sticker-catalog/models"), "the user's data folder: \(run.stderr)")
        #expect(run.stderr.contains(prefix.path + "/share/sticker-catalog/models"), "the installed folder: \(run.stderr)")
        let help = try await CLI.run(["--help"], in: folder)
        #expect(help.stdout.contains("STICKER_MODEL_DIR") && help.stdout.contains("sticker-catalog/models")
                && help.stdout.contains("/usr/share/sticker-catalog/models"), "\(help.stdout)")
    }

    @Test func theInstalledModelIsFoundBesideTheBinary() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let prefix = try await installedCopy(in: folder)
        // A damaged model there proves it is the one loaded (the user's data folder has none).
        let models = "prefix/share/sticker-catalog/models/"
        try folder.write(Array(#"{"format":"sticker-nn-graph","version":1}"#.utf8), to: models + "u2netp.json")
        try folder.write([UInt8](repeating: 0, count: 64), to: models + "u2netp.bin")
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder,
                              environment: ["STICKER_MODEL_DIR": "", "XDG_DATA_HOME": folder.path("data")],
                              executable: prefix.appendingPathComponent("bin/catalog"))
        #expect(run.status == 69)
        #expect(run.stderr.contains("damaged") && run.stderr.contains(folder.path(models).dropLast()), "\(run.stderr)")
    }

    @Test(.needsModel) func importUsesTheInstalledModel() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let prefix = try await installedCopy(in: folder)
        let models = prefix.appendingPathComponent("share/sticker-catalog/models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        for file in ["u2netp.json", "u2netp.bin"] {
            try FileManager.default.createSymbolicLink(atPath: models.appendingPathComponent(file).path, withDestinationPath: try #require(InstalledModel.folder) + "/" + file)
        }
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--jobs", "1"], in: folder,
                              environment: ["STICKER_MODEL_DIR": "", "XDG_DATA_HOME": folder.path("data")],
                              executable: prefix.appendingPathComponent("bin/catalog"))
        #expect(run.status == 0, "\(run.stderr)")
    }
}
