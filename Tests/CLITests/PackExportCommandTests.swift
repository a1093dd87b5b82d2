import Catalog
import Foundation
import Processing
import Testing

/// `catalog pack`, `export` and `preview` as a user or a script runs them.
@Suite(.timeLimit(.minutes(15))) struct PackExportCommandTests {
    /// A folder with a catalog `c.sqlite` holding `count` stickers (ids 1...count), made through the
    /// repository so no segmentation model is needed.
    private func catalogWithStickers(_ count: Int) async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let repository = try SQLiteCatalogStore(url: URL(fileURLWithPath: folder.path("c.sqlite")), access: .readWrite)
        for index in 0..<count {
            var image = RGBAImage(width: 200, height: 150, red: 0, green: 0, blue: 0, alpha: 0)
            for y in 20..<130 {
                for x in 30..<170 {
                    let offset = (y * 200 + x) * 4
                    image.pixels[offset] = UInt8(truncatingIfNeeded: index * 40 + x)
                    image.pixels[offset + 1] = UInt8(truncatingIfNeeded: y)
                    image.pixels[offset + 2] = 120
                    image.pixels[offset + 3] = 255
                }
            }
            let photo = ProcessedPhoto(
                format: .png, width: 200, height: 150, exif: nil,
                sticker: StickerImage(png: try PNGCodec.encode(image), width: 200, height: 150),
                palette: Palette(colors: [PaletteColor(hex: "#3388cc", l: 0.6, a: -0.05, b: -0.1, share: 1)]),
                pipelineVersion: 1, settings: StickerSettings(size: 512, paletteColors: 5)
            )
            _ = try await repository.recordProcessed(
                photo, sha256: String(format: "%064x", 500 + index),
                source: SourceFile(path: folder.path("p\(index).png"), size: 10, modificationTime: 0)
            )
        }
        return folder
    }

    private func run(_ arguments: [String], in folder: TemporaryFolder, stdin: Data? = nil) async throws -> CLIResult {
        try await CLI.run(["--catalog", "c.sqlite"] + arguments, in: folder, stdin: stdin)
    }

    @Test func packCommandsKeepOrderAndReadIdsFromStdin() async throws {
        let folder = try await catalogWithStickers(4)
        #expect(try await run(["pack", "create", "beach", "--title", "Beach days", "--author", "Ana"], in: folder).status == 0)
        let add = try await run(["pack", "add", "beach", "-", "--emoji", "🌊"], in: folder, stdin: Data("3\n1\n".utf8))
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try await run(["pack", "add", "beach", "4", "2"], in: folder).status == 0)
        #expect(try await run(["pack", "move", "beach", "2", "--to", "1"], in: folder).status == 0)
        #expect(try await run(["pack", "remove", "beach", "1"], in: folder).status == 0)
        let show = try #require(try await run(["pack", "show", "beach", "--json"], in: folder).json as? [String: Any])
        let items = try #require(show["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? Int } == [2, 3, 4])
        #expect(items.map { $0["emoji"] as? [String] } == [["🙂"], ["🌊"], ["🙂"]])
        #expect(show["title"] as? String == "Beach days")
        let list = try #require(try await run(["pack", "list", "--json"], in: folder).json as? [[String: Any]])
        #expect(list.count == 1 && list[0]["count"] as? Int == 3 && list[0]["name"] as? String == "beach")
        let entries = try #require(try await run(["list", "--pack", "beach", "--json"], in: folder).json as? [[String: Any]])
        #expect(entries.map { $0["id"] as? Int } == [2, 3, 4])
        #expect(try await run(["pack", "delete", "beach"], in: folder).status == 0)
        #expect(try await run(["pack", "show", "beach"], in: folder).status == 65)
    }

    @Test func packCommandErrorsAreClearAndChangeNothing() async throws {
        let folder = try await catalogWithStickers(2)
        for name in ["../x", "/abs", "a/b", String(repeating: "x", count: 65), "be\u{2215}ach"] {
            let bad = try await run(["pack", "create", name], in: folder)
            #expect(bad.status == 64, "\(name)")
            #expect(bad.stderr.contains("invalid pack name"))
        }
        #expect(try await run(["pack", "create", "p"], in: folder).status == 0)
        let again = try await run(["pack", "create", "p"], in: folder)
        #expect(again.status == 65 && again.stderr.contains("exists already"))
        let unknown = try await run(["pack", "add", "p", "1", "99"], in: folder)
        #expect(unknown.status == 65 && unknown.stderr.contains("99"))
        let noPack = try await run(["pack", "add", "nope", "1"], in: folder)
        #expect(noPack.status == 65 && noPack.stderr.contains("no pack named \"nope\""))
        #expect(try await run(["pack", "add", "p", "x1"], in: folder).status == 64)
        #expect(try await run(["pack", "add", "p", "1", "--emoji", "abc"], in: folder).status == 64)
        #expect(try await run(["pack", "add", "p", "-"], in: folder, stdin: Data()).status == 64)
        #expect(try await run(["pack", "move", "p", "1", "--to", "1"], in: folder).status == 65)
        let show = try #require(try await run(["pack", "show", "p", "--json"], in: folder).json as? [String: Any])
        #expect((show["items"] as? [Any])?.isEmpty == true)
    }

    @Test func exportDryRunForceAndJSON() async throws {
        let folder = try await catalogWithStickers(3)
        _ = try await run(["pack", "create", "beach"], in: folder)
        _ = try await run(["pack", "add", "beach", "1", "2", "3"], in: folder)
        let dry = try await run(["export", "beach", "--format", "whatsapp", "-o", "out", "--dry-run", "--json"], in: folder)
        #expect(dry.status == 0, "\(dry.stderr)")
        let report = try #require(dry.json as? [String: Any])
        #expect(report["ok"] as? Bool == true && report["dryRun"] as? Bool == true)
        let files = try #require((report["parts"] as? [[String: Any]])?.first?["files"] as? [[String: Any]])
        #expect(files.count == 4)  // three stickers and the tray icon
        #expect(Set(files[0].keys) == ["id", "file", "width", "height", "bytes", "limit", "encoding", "ok"])
        #expect(files[0]["limit"] as? Int == 100_000 && files[0]["width"] as? Int == 512)
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))

        let human = try await run(["export", "beach", "--format", "telegram", "-o", "out", "--dry-run"], in: folder)
        #expect(human.stdout.contains("Would write") && human.stdout.contains("LIMIT"))

        #expect(try await run(["export", "beach", "--format", "whatsapp", "-o", "out"], in: folder).status == 0)
        let exists = try await run(["export", "beach", "--format", "whatsapp", "-o", "out"], in: folder)
        #expect(exists.status == 74 && exists.stderr.contains("--force"))
        #expect(try await run(["export", "beach", "--format", "whatsapp", "-o", "out", "--force"], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("out/beach.wastickers")))

        _ = try await run(["pack", "create", "two"], in: folder)
        _ = try await run(["pack", "add", "two", "1", "2"], in: folder)
        let tooFew = try await run(["export", "two", "--format", "whatsapp", "-o", "out"], in: folder)
        #expect(tooFew.status == 65 && tooFew.stderr.contains("at least 3"))
        #expect(try await run(["export", "nope", "-o", "out"], in: folder).status == 65)
        #expect(try await run(["export", "beach", "--format", "gif"], in: folder).status == 64)
        #expect(try await run(["export", "../beach"], in: folder).status == 64)
    }

    @Test func previewWritesAContactSheet() async throws {
        let folder = try await catalogWithStickers(5)
        _ = try await run(["pack", "create", "beach", "--title", "Beach days"], in: folder)
        _ = try await run(["pack", "add", "beach", "1", "2", "3", "4", "5"], in: folder)
        let preview = try await run(["preview", "beach", "-o", "sheet.png", "--columns", "2"], in: folder)
        #expect(preview.status == 0, "\(preview.stderr)")
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("sheet.png"))))
        let size = try PNGCodec.readHeader(png)
        let layout = ContactSheet()
        #expect(size.width == 2 * layout.margin + 2 * layout.tileSize + layout.gap)
        #expect(size.height > 3 * layout.tileSize)
        #expect(try await run(["preview", "beach", "-o", "sheet.png"], in: folder).status == 74)
        #expect(try await run(["preview", "beach", "-o", "sheet.png", "--force"], in: folder).status == 0)
        _ = try await run(["pack", "create", "empty"], in: folder)
        #expect(try await run(["preview", "empty", "-o", "e.png"], in: folder).status == 65)
    }

    @Test(.needsModel) func importAddsToAPack() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        // Only the samples with their own transparency, which need no segmentation model.
        for name in try FileManager.default.contentsOfDirectory(atPath: photos) where !name.hasSuffix("-sticker.png") {
            try FileManager.default.removeItem(atPath: photos + "/" + name)
        }
        let imported = try await run(["import", photos, "--pack", "mine", "--jobs", "2"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let show = try #require(try await run(["pack", "show", "mine", "--json"], in: folder).json as? [String: Any])
        let paths = (show["items"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(paths.count == 2 && paths == paths.sorted())  // path order, whatever finished first
        #expect(try await run(["import", photos, "--pack", "a/b"], in: folder).status == 64)
    }
}
