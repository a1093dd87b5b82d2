import Foundation
import Processing
import Testing

/// The cut-out's precision: the setting `cutout.precision` (auto, fp32, int8; stored as said), `--precision`
/// for one run, what `--version` says this machine runs, and stickers of another precision are stale.
@Suite(.timeLimit(.minutes(15))) struct CutoutPrecisionTests {
    private func catalog(_ arguments: String..., in folder: TemporaryFolder, environment: [String: String] = [:]) async throws -> CLIResult {
        try await CLI.run(["--catalog", "c.sqlite"] + arguments, in: folder, environment: environment)
    }

    /// `list --stale --json` as id -> reasons.
    private func stale(in folder: TemporaryFolder) async throws -> [Int: [String]] {
        let result = try await catalog("list", "--stale", "--json", in: folder)
        try #require(result.status == 0, "stderr: \(result.stderr)")
        let entries = try #require(result.json as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: entries.map { ($0["id"] as? Int ?? -1, $0["reasons"] as? [String] ?? []) })
    }

    /// The precision entry `id`'s sticker records (`show --json`).
    private func precision(of id: Int, in folder: TemporaryFolder) async throws -> String? {
        let show = try await catalog("show", String(id), "--json", in: folder)
        let detail = try #require(show.json as? [String: Any], "\(show.stderr)")
        return ((detail["sticker"] as? [String: Any])?["settings"] as? [String: Any])?["precision"] as? String
    }

    @Test func theSettingIsStoredAsSaidAndListedWithWhatAutoRunsHere() async throws {
        let folder = try TemporaryFolder()
        #expect(try await catalog("config", "get", "cutout.precision", in: folder).stdout == "auto\n")

        let set = try await catalog("config", "set", "cutout.precision", "fp32", in: folder)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.hasPrefix("cutout.precision = fp32 (was auto, which runs "), "\(set.stdout)")
        #expect(try await catalog("config", "get", "cutout.precision", in: folder).stdout == "fp32\n")

        // auto is stored as auto, not as what it runs on this machine.
        #expect(try await catalog("config", "set", "cutout.precision", "auto", in: folder).status == 0)
        #expect(try await catalog("config", "get", "cutout.precision", in: folder).stdout == "auto\n")
        let runs = PrecisionSetting.auto.resolved
        let table = try await catalog("config", "list", in: folder)
        #expect(table.stdout.contains("cutout.precision  auto (\(runs.rawValue) on \(runs.instructions()))"), "\(table.stdout)")

        let json = try await catalog("config", "list", "--json", in: folder)
        let settings = try #require(json.json as? [[String: Any]], "\(json.stdout)")
        let precision = try #require(settings.first { $0["key"] as? String == "cutout.precision" })
        #expect(precision["value"] as? String == "auto" && precision["default"] as? String == "auto")
        #expect(precision["runs"] as? String == "\(runs.rawValue) on \(runs.instructions())", "\(precision)")

        #expect(try await catalog("config", "set", "cutout.precision", "int8", in: folder).status == 0)
        let fixed = try #require(try await catalog("config", "list", "--json", in: folder).json as? [[String: Any]])
        let named = try #require(fixed.first { $0["key"] as? String == "cutout.precision" })
        #expect(named["value"] as? String == "int8" && named["runs"] == nil, "\(named)")
    }

    @Test func aBadPrecisionIsAUsageErrorNamingTheChoices() async throws {
        let folder = try TemporaryFolder()
        let setting = try await catalog("config", "set", "cutout.precision", "int4", in: folder)
        #expect(setting.status == 64)
        #expect(setting.stderr.contains("invalid value 'int4' for cutout.precision: expected auto, fp32 or int8"), "\(setting.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")), "nothing written")

        try folder.write([0xFF, 0xD8], to: "photos/a.jpg")
        for command in [["import", "photos"], ["reprocess"], ["recut", "1"], ["work"], ["serve", "--port", "0"], ["cutout", "photos/a.jpg", "-o", "a.png"]] {
            let catalogOption = command[0] == "cutout" ? [] : ["--catalog", "c.sqlite"]
            let run = try await CLI.run(catalogOption + command + ["--precision", "half"], in: folder)
            #expect(run.status == 64, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("unknown --precision 'half': expected auto, fp32 or int8"), "\(command): \(run.stderr)")
        }
        let enqueue = try await catalog("import", "--enqueue", "photos", "--precision", "int8", in: folder)
        #expect(enqueue.status == 64 && enqueue.stderr.contains("--precision"), "\(enqueue.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")), "nothing written")

        let help = try await CLI.run(["import", "--help"], in: folder)
        #expect(help.stdout.contains("--precision"), "\(help.stdout)")
    }

    @Test func versionSaysWhichPathThisMachineRunsAndFollowsTheKernels() async throws {
        let folder = try TemporaryFolder()
        let lines = try await CLI.run(["--version"], in: folder).stdout.split(separator: "\n").map(String.init)
        let automatic = PrecisionSetting.auto.resolved
        #expect(lines.count == 2 && lines[1].hasPrefix("cut-out: \(automatic.rawValue) on "), "\(lines)")
        #expect(lines[1].contains(" (auto); "), "\(lines)")
        // Narrowed to the scalar kernels, both precisions run scalar code.
        let scalar = try await CLI.run(["--version"], in: folder, environment: ["STICKER_KERNELS": "scalar"])
        #expect(scalar.stdout.hasSuffix("cut-out: \(automatic.rawValue) on scalar (auto); \(automatic == .int8 ? "fp32" : "int8") on scalar\n"), "\(scalar.stdout)")
    }

    @Test(.needsModel) func stickersOfAnotherPrecisionAreStaleUntilTheSettingIsBack() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        #expect(try await catalog("config", "set", "cutout.precision", "fp32", in: folder).status == 0)
        let imported = try await catalog("import", photos, in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try await precision(of: 1, in: folder) == "fp32")
        let show = try await catalog("show", "1", in: folder)
        #expect(show.stdout.contains("model u2netp, fp32"), "\(show.stdout)")
        #expect(try await stale(in: folder).isEmpty)

        #expect(try await catalog("config", "set", "cutout.precision", "int8", in: folder).status == 0)
        let stale = try await stale(in: folder)
        #expect(!stale.isEmpty && stale.values.allSatisfy { $0 == ["settings"] }, "\(stale)")

        #expect(try await catalog("config", "set", "cutout.precision", "fp32", in: folder).status == 0)
        #expect(try await self.stale(in: folder).isEmpty)

        // --precision makes one run's stickers in its precision: reprocess --all with int8 records int8.
        let remade = try await catalog("reprocess", "--all", "--precision", "int8", in: folder)
        #expect(remade.status == 0, "\(remade.stderr)")
        #expect(try await precision(of: 1, in: folder) == "int8")
        #expect(try await self.stale(in: folder).count == stale.count, "int8 stickers are stale under fp32")
    }
}
