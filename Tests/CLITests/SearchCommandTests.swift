import Foundation
import Processing
import Testing

/// `catalog search`, `catalog palette`, the palette in `show`, and `import --colors`, as a user runs them.
@Suite(.needsModel, .timeLimit(.minutes(15))) struct SearchCommandTests {
    /// A cut-out PNG (transparent outside a 60×60 square) painted by `color(x, y)`.
    private func sticker(_ color: (Int, Int) -> (UInt8, UInt8, UInt8)) throws -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<100 {
            for x in 0..<100 {
                if (20..<80).contains(x) && (20..<80).contains(y) {
                    let (r, g, b) = color(x, y)
                    pixels += [r, g, b, 255]
                } else {
                    pixels += [255, 255, 255, 0]
                }
            }
        }
        return try PNGCodec.encode(RGBAImage(width: 100, height: 100, pixels: pixels))
    }

    /// A catalog with: a sticker mostly orange (with some teal), one blue with an orange speck, one grey.
    private func catalog() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(try sticker { x, _ in x < 65 ? (255, 136, 0) : (0, 128, 128) }, to: "photos/a-mostly-orange.png")
        try folder.write(try sticker { x, y in x < 32 && y < 32 ? (255, 136, 0) : (20, 40, 200) }, to: "photos/b-speck.png")
        try folder.write(try sticker { _, _ in (128, 128, 128) }, to: "photos/c-grey.png")
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", folder.path("photos"), "--jobs", "1"], in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return folder
    }

    private func ids(_ arguments: [String], in folder: TemporaryFolder) async throws -> [String] {
        let run = try await CLI.run(["--catalog", "c.sqlite", "search"] + arguments + ["--ids"], in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test func mostlyOrangeComesFirst() async throws {
        let folder = try await catalog()
        let run = try await CLI.run(["--catalog", "c.sqlite", "search", "--color", "#ff8800", "--json"], in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let results = try #require(run.json as? [[String: Any]])
        #expect(results.map { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == ["a-mostly-orange.png", "b-speck.png"])
        #expect(Set(results[0].keys) == ["id", "path", "distance", "color", "share"])
        #expect(results[0]["color"] as? String == "#ff8800")
        #expect(abs((results[0]["share"] as? Double ?? 0) - 0.75) < 0.03)
        #expect((results[0]["distance"] as? Double ?? 99) < 0.5)
        #expect(try await ids(["--color", "#ff8800"], in: folder) == ["1", "2"])
        #expect(try await ids(["--color", "#ff8800", "--limit", "1"], in: folder) == ["1"])
        // Teal (#008080) is ΔE 10.9 from grey: within the default 12, far below the grey sticker.
        #expect(try await ids(["--color", "grey"], in: folder) == ["3", "1"])
        let table = try await CLI.run(["--catalog", "c.sqlite", "search", "--color", "darkorange"], in: folder)
        #expect(table.stdout.hasPrefix("ID  COLOR"))
        #expect(table.stdout.contains("a-mostly-orange.png"))
    }

    @Test func everyColourMustMatchAndWithinIsTheThreshold() async throws {
        let folder = try await catalog()
        #expect(try await ids(["--color", "orange", "--color", "teal"], in: folder) == ["1"])
        #expect(try await ids(["--color", "orange", "--color", "#1428c8"], in: folder) == ["2"])
        // #ff8800 to pure red is ΔE 19.
        #expect(try await ids(["--color", "red", "--within", "5"], in: folder).isEmpty)
        #expect(try await ids(["--color", "red", "--within", "25"], in: folder).first == "1")
        let none = try await CLI.run(["--catalog", "c.sqlite", "search", "--color", "lime", "--json"], in: folder)
        #expect(none.status == 0)
        #expect((none.json as? [Any])?.isEmpty == true)
        let camera = try await CLI.run(["--catalog", "c.sqlite", "search", "--color", "orange", "--camera", "canon", "--ids"], in: folder)
        #expect(camera.status == 0 && camera.stdout.isEmpty, "PNGs without EXIF match no camera")
    }

    @Test func badInputIsAUsageError() async throws {
        let folder = try await catalog()
        for arguments in [
            ["--color", "orang"], ["--color", "#ff88"], ["--color", "ff8800"], [], ["--color", "red", "--within", "0"],
            ["--color", "red", "--limit", "0"], ["--color", "red", "--json", "--ids"], ["--color", "red", "--taken-after", "yesterday"],
        ] {
            let run = try await CLI.run(["--catalog", "c.sqlite", "search"] + arguments, in: folder)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
        }
        let bad = try await CLI.run(["--catalog", "c.sqlite", "search", "--color", "orang"], in: folder)
        #expect(bad.stderr.contains("'orang' is not a colour"))
        #expect(bad.stderr.contains("#rrggbb, #rgb, or a CSS colour name"))
        for colors in ["0", "17", "x"] {
            let run = try await CLI.run(["--catalog", "d.sqlite", "import", folder.path("photos"), "--colors", colors], in: folder)
            #expect(run.status == 64, "--colors \(colors): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("d.sqlite")))
    }

    @Test func importColorsSetsThePaletteSize() async throws {
        let folder = try TemporaryFolder()
        try folder.write(try sticker { x, y in (UInt8(x * 2), UInt8(y * 2), 100) }, to: "photos/gradient.png")
        for (catalog, colors) in [("two.sqlite", 2), ("nine.sqlite", 9)] {
            let run = try await CLI.run(["--catalog", catalog, "import", folder.path("photos"), "--colors", "\(colors)"], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let show = try #require(try await CLI.run(["--catalog", catalog, "show", "1", "--json"], in: folder).json as? [String: Any])
            #expect((show["palette"] as? [Any])?.count == colors)
        }
    }

    @Test func paletteFormatsAndShow() async throws {
        let folder = try await catalog()
        let gpl = try await CLI.run(["--catalog", "c.sqlite", "palette", "1"], in: folder)
        #expect(gpl.status == 0, "stderr: \(gpl.stderr)")
        #expect(gpl.stdout.hasPrefix("GIMP Palette\nName: sticker 1 a-mostly-orange.png\nColumns: 2\n#\n"))
        #expect(gpl.stdout.contains("255 136   0\t#ff8800 75%\n"))
        #expect(gpl.stdout.contains("  0 128 128\t#008080 25%\n"))
        let css = try await CLI.run(["--catalog", "c.sqlite", "palette", "1", "--format", "css"], in: folder)
        #expect(css.stdout.contains(":root {\n  --sticker-1-1: #ff8800; /* 75% */\n  --sticker-1-2: #008080; /* 25% */\n}\n"))
        let json = try #require(try await CLI.run(["--catalog", "c.sqlite", "palette", "1", "--format", "json"], in: folder).json as? [String: Any])
        #expect(Set(json.keys) == ["id", "path", "colors"])
        let first = try #require((json["colors"] as? [[String: Any]])?.first)
        #expect(first["hex"] as? String == "#ff8800")
        #expect(first["rgb"] as? [Int] == [255, 136, 0])
        #expect((first["oklab"] as? [Double])?.count == 3)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "palette", "1", "--format", "ase"], in: folder).status == 64)
        #expect(try await CLI.run(["--catalog", "c.sqlite", "palette", "99"], in: folder).status == 65)
        let show = try await CLI.run(["--catalog", "c.sqlite", "show", "1"], in: folder)
        #expect(show.stdout.contains("Palette  #ff8800 75%  #008080 25%"))
    }
}
