import Foundation
import Testing

/// `catalog config`: settings stored in the catalog, validated, listed.
@Suite(.timeLimit(.minutes(15))) struct ConfigCommandTests {
    @Test func defaultsWithoutACatalogAndNothingIsCreated() async throws {
        let folder = try TemporaryFolder()
        let get = try await CLI.run(["--catalog", "c.sqlite", "config", "get", "palette.colors"], in: folder)
        #expect(get.status == 0, "stderr: \(get.stderr)")
        #expect(get.stdout == "5\n")
        let list = try await CLI.run(["config", "list", "--catalog", "c.sqlite", "--json"], in: folder)
        #expect(list.status == 0)
        let settings = try #require(list.json as? [[String: Any]])
        #expect(settings.map { $0["key"] as? String } == ["palette.colors", "sticker.size", "sticker.outline", "sticker.shadow", "cutout.model", "cutout.precision"])
        #expect(settings.map { "\($0["value"] ?? "")" } == ["5", "512", "8", "0", "u2net", "auto"])  // false prints as 0 through NSNumber
        #expect(settings[3]["value"] as? Bool == false)
        // cutout.precision auto also says what it runs on this machine.
        #expect(settings.dropLast().allSatisfy { Set($0.keys) == ["key", "value", "default", "description"] })
        #expect(settings.last.map { Set($0.keys) } == ["key", "value", "default", "description", "runs"])
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")))
    }

    @Test func setStoresACanonicalValueThatGetAndListShow() async throws {
        let folder = try TemporaryFolder()
        let set = try await CLI.run(["--catalog", "c.sqlite", "config", "set", "sticker.outline", "04"], in: folder)
        #expect(set.status == 0, "stderr: \(set.stderr)")
        #expect(set.stdout.contains("sticker.outline = 4 (was 8)"))
        #expect(try await CLI.run(["--catalog", "c.sqlite", "config", "set", "sticker.shadow", "true"], in: folder).status == 0)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "config", "get", "sticker.outline"], in: folder).stdout == "4\n")
        let list = try await CLI.run(["--catalog", "c.sqlite", "config", "list", "--json"], in: folder)
        let settings = try #require(list.json as? [[String: Any]])
        #expect(settings[2]["value"] as? Int == 4 && settings[2]["default"] as? Int == 8)
        #expect(settings[3]["value"] as? Bool == true)
        let table = try await CLI.run(["--catalog", "c.sqlite", "config", "list"], in: folder)
        let shadow = table.stdout.split(separator: "\n").first { $0.hasPrefix("sticker.shadow ") }
        #expect(shadow?.split(separator: " ").dropFirst().first == "true", "\(table.stdout)")
    }

    @Test(arguments: [
        (["palette.colors", "0"], "invalid value '0' for palette.colors: expected a whole number from 1 to 16"),
        (["palette.colors", "17"], "expected a whole number from 1 to 16"),
        (["sticker.size", "64"], "invalid value '64' for sticker.size: expected a whole number from 128 to 2048"),
        (["sticker.size", "big"], "for sticker.size"),
        (["sticker.outline", "-1"], "for sticker.outline: expected a whole number from 0 to 64"),
        (["sticker.shadow", "yes"], "invalid value 'yes' for sticker.shadow: expected true or false"),
        (["sticker.colour", "1"], "unknown setting 'sticker.colour'; the settings are palette.colors, sticker.size"),
    ])
    func badKeysAndValuesAreUsageErrorsThatTouchNothing(arguments: [String], message: String) async throws {
        let folder = try TemporaryFolder()
        let result = try await CLI.run(["--catalog", "c.sqlite", "config", "set"] + arguments, in: folder)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")))
    }

    @Test func getOfAnUnknownKeyIsAUsageError() async throws {
        let folder = try TemporaryFolder()
        let result = try await CLI.run(["--catalog", "c.sqlite", "config", "get", "size"], in: folder)
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown setting 'size'"))
    }
}
