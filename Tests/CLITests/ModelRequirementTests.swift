import Foundation
import SampleImages
import Testing

/// `catalog import` needs the segmentation model: without it (or with a damaged one) it refuses
/// up front with exit 69, says where it looked and how to install it, and writes nothing.
@Suite struct ModelRequirementTests {
    @Test(arguments: [false, true])
    func missingModelExits69AndWritesNothing(dryRun: Bool) throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let run = try CLI.run(["--catalog", "c.sqlite", "import", photos] + (dryRun ? ["--dry-run"] : []), in: folder,
                              environment: ["STICKER_MODEL_DIR": folder.path("no-model-here")])
        #expect(run.status == 69, "stderr: \(run.stderr)")
        #expect(run.stderr.contains(folder.path("no-model-here")), "says where it looked: \(run.stderr)")
        #expect(run.stderr.contains("make model") && run.stderr.contains("STICKER_MODEL_DIR"), "says how to install it")
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")), "no catalog created")
    }

    @Test func defaultLocationIsTheDataFolder() throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let run = try CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder,
                              environment: ["STICKER_MODEL_DIR": "", "XDG_DATA_HOME": folder.path("data")])
        #expect(run.status == 69)
        #expect(run.stderr.contains(folder.path("data") + "/sticker-catalog/models"), "\(run.stderr)")
    }

    @Test func damagedModelIsAClearError() throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        try folder.write(Array(#"{"format":"sticker-nn-graph","version":1}"#.utf8), to: "model/u2netp.json")
        try folder.write([UInt8](repeating: 0, count: 64), to: "model/u2netp.bin")
        let run = try CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder, environment: ["STICKER_MODEL_DIR": folder.path("model")])
        #expect(run.status == 69)
        #expect(run.stderr.contains("damaged") && run.stderr.contains(folder.path("model")), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")))
    }
}
