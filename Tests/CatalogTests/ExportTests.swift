import Crypto
import Foundation
import Processing
import Testing
import ZIPFoundation

@testable import Catalog

/// The files of an export, read back: from a folder, or from a zip (entry paths checked).
func exportedFiles(at url: URL) throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    var isFolder: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
    if isFolder.boolValue {
        for relative in FileManager.default.subpaths(atPath: url.path) ?? [] {
            var sub: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.appending(path: relative).path, isDirectory: &sub)
            if !sub.boolValue { files[relative] = Array(try Data(contentsOf: url.appending(path: relative))) }
        }
    } else {
        let archive = try Archive(url: url, accessMode: .read)
        for entry in archive {
            #expect(ExportPath.isSafeRelative(entry.path), "zip entry \(entry.path)")
            #expect(!entry.path.contains("\\") && !entry.path.hasPrefix("/"))
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            files[entry.path] = Array(data)
        }
    }
    return files
}

/// The manifest's claims checked against the files: every listed SHA-256 and size matches, and every
/// file but the manifest is listed. Returns the manifest.
@discardableResult
func checkManifest(_ files: [String: [UInt8]], at path: String = "manifest.json") throws -> [String: Any] {
    let manifestBytes = try #require(files[path])
    let manifest = try #require(try JSONSerialization.jsonObject(with: Data(manifestBytes)) as? [String: Any])
    let listed = try #require(manifest["files"] as? [[String: Any]])
    for file in listed {
        let name = try #require(file["path"] as? String)
        let bytes = try #require(files[name])
        #expect(file["bytes"] as? Int == bytes.count)
        #expect(file["sha256"] as? String == SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())
    }
    #expect(Set(listed.compactMap { $0["path"] as? String }) == Set(files.keys).subtracting([path]))
    let stickers = try #require(manifest["stickers"] as? [[String: Any]])
    for sticker in stickers {
        #expect(sticker["id"] is Int && sticker["emoji"] is [String] && sticker["palette"] is [[String: Any]])
        let source = try #require(sticker["source"] as? [String: Any])
        #expect(source["sha256"] is String)
        let exif = try #require(source["exif"] as? [String: Any])
        #expect(exif["model"] as? String == "EOS R5")
        #expect(exif["gpsLatitude"] == nil)  // never in a shared export
    }
    return manifest
}

func pixelSize(_ bytes: [UInt8]) -> (width: Int, height: Int, type: String)? {
    if let png = try? PNGCodec.readHeader(bytes) { return (png.width, png.height, "png") }
    if let webp = WebPCodec.size(of: bytes) { return (webp.width, webp.height, "webp") }
    return nil
}

@Suite("Export: every format re-opened and checked against its limits", .timeLimit(.minutes(15)))
struct ExportTests {
    func export(_ repository: any CatalogStore, _ pack: String, _ format: ExportFormat, to folder: URL, force: Bool = false, dryRun: Bool = false) async throws -> ExportReport {
        let source = try await repository.packSource(named: pack)
        return try await Exporter(options: ExportOptions(format: format, outputDirectory: folder, force: force, dryRun: dryRun)).run(source)
    }

    @discardableResult
    /// A pack of `count` stickers of assorted shapes (wide, tall, small, large).
    func makePack(_ repository: any CatalogStore, name: String = "beach", count: Int) async throws -> [Int64] {
        var ids: [Int64] = []
        let sizes = [(512, 384), (300, 600), (64, 64), (512, 512), (700, 200)]
        for index in 0..<count {
            let (width, height) = sizes[index % sizes.count]
            ids.append(try await record(repository, png: try stickerPNG(width: width, height: height, seed: index), width: width, height: height, seed: index))
        }
        _ = try await repository.createPack(name: name, title: "Beach days", author: "Ana")
        _ = try await repository.addToPack(name, ids: ids, emoji: "🌊🐚🏖️🌞")
        return ids
    }

    @Test("telegram: one side 512, the other at most 512, ≤ 512 KB, a 100×100 thumbnail ≤ 128 KB, emoji list", arguments: StoreKind.allCases)
    func telegram(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            let ids = try await makePack(repository, count: 5)
            let report = try await export(repository, "beach", .telegram, to: directory.appending(path: "out"))
            #expect(report.ok && report.parts.count == 1)
            let files = try exportedFiles(at: directory.appending(path: "out/beach.telegram"))
            let manifest = try checkManifest(files)
            let stickers = try #require(manifest["stickers"] as? [[String: Any]])
            #expect(stickers.compactMap { $0["id"] as? Int }.map(Int64.init) == ids)
            for sticker in stickers {
                let bytes = try #require(files[sticker["file"] as! String])
                let size = try #require(pixelSize(bytes))
                #expect(max(size.width, size.height) == 512 && min(size.width, size.height) <= 512)
                #expect(bytes.count <= 512_000)
                #expect((sticker["emoji"] as? [String])?.count == 4)
            }
            let thumbnail = try #require(files["thumbnail.png"])
            #expect(pixelSize(thumbnail)! == (100, 100, "png") && thumbnail.count <= 128_000)
            let emoji = String(decoding: try #require(files["emoji.txt"]), as: UTF8.self).split(separator: "\n")
            #expect(emoji.count == 5 && emoji[0].hasSuffix("🌊🐚🏖️🌞"))
            #expect(String(decoding: files["title.txt"]!, as: UTF8.self) == "Beach days\n")
        }
    }

    @Test("whatsapp: a .wastickers zip of 512×512 WebP ≤ 100 KB, a 96×96 PNG tray ≤ 50 KB, title, author, 1-3 emoji", arguments: StoreKind.allCases)
    func whatsapp(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            try await makePack(repository, count: 4)
            // One incompressible sticker, so the lossy quality search has to run.
            let noisy = try await record(repository, png: try noisePNG(width: 512, height: 512, seed: 7), width: 512, height: 512, seed: 77)
            _ = try await repository.addToPack("beach", ids: [noisy])
            let report = try await export(repository, "beach", .whatsapp, to: directory.appending(path: "out"))
            #expect(report.ok)
            #expect(report.parts[0].files.contains { $0.id == noisy && $0.encoding.hasPrefix("webp-q") })
            let zipURL = directory.appending(path: "out/beach.wastickers")
            let files = try exportedFiles(at: zipURL)
            let manifest = try checkManifest(files)
            let webps = files.keys.filter { $0.hasSuffix(".webp") }
            #expect((3...30).contains(webps.count) && webps.count == 5)
            for name in webps {
                #expect(pixelSize(files[name]!)! == (512, 512, "webp"))
                #expect(files[name]!.count <= 100_000)
            }
            let tray = try #require(files["tray.png"])
            #expect(pixelSize(tray)! == (96, 96, "png") && tray.count <= 50_000)
            #expect(String(decoding: files["title.txt"]!, as: UTF8.self) == "Beach days")
            #expect(String(decoding: files["author.txt"]!, as: UTF8.self) == "Ana")
            #expect(manifest["cover"] as? String == "tray.png")
            for sticker in manifest["stickers"] as! [[String: Any]] {
                #expect((1...3).contains((sticker["emoji"] as! [String]).count))
            }
        }
    }

    @Test("signal: 512×512 ≤ 300 KB, a manifest with title, author, cover and one emoji each", arguments: StoreKind.allCases)
    func signal(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            try await makePack(repository, count: 3)
            _ = try await export(repository, "beach", .signal, to: directory.appending(path: "out"))
            let files = try exportedFiles(at: directory.appending(path: "out/beach.signal"))
            let manifest = try checkManifest(files)
            #expect(manifest["title"] as? String == "Beach days" && manifest["author"] as? String == "Ana")
            let stickers = manifest["stickers"] as! [[String: Any]]
            #expect(manifest["cover"] as? String == stickers[0]["file"] as? String)
            for sticker in stickers {
                let bytes = files[sticker["file"] as! String]!
                #expect(pixelSize(bytes).map { ($0.width, $0.height) }! == (512, 512))
                #expect(bytes.count <= 300_000)
                #expect(sticker["emoji"] as? [String] == ["🌊"])
            }
        }
    }

    @Test("imessage: Stickers.xcstickers/NAME.stickerpack with Contents.json for the pack and each sticker, square PNG < 500 KB", arguments: StoreKind.allCases)
    func imessage(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            try await makePack(repository, count: 3)
            for size in PlatformLimits.iMessageSizes {
                let out = directory.appending(path: "out-\(size)")
                _ = try await Exporter(options: ExportOptions(format: .imessage, outputDirectory: out, iMessageSize: size)).run(try repository.packSource(named: "beach"))
                let files = try exportedFiles(at: out.appending(path: "beach.imessage"))
                try checkManifest(files)
                let pack = "Stickers.xcstickers/beach.stickerpack/"
                #expect(files["Stickers.xcstickers/Contents.json"] != nil)
                let contents = try JSONSerialization.jsonObject(with: Data(try #require(files[pack + "Contents.json"]))) as! [String: Any]
                let stickers = contents["stickers"] as! [[String: String]]
                #expect(stickers.map { $0["filename"]! } == ["001-1.sticker", "002-2.sticker", "003-3.sticker"])
                #expect((contents["properties"] as! [String: String])["grid-size"] == ["small", "regular", "large"][PlatformLimits.iMessageSizes.firstIndex(of: size)!])
                for sticker in stickers {
                    let folder = pack + sticker["filename"]! + "/"
                    let inner = try JSONSerialization.jsonObject(with: Data(try #require(files[folder + "Contents.json"]))) as! [String: Any]
                    let png = try #require(files[folder + ((inner["properties"] as! [String: String])["filename"]!)])
                    #expect(pixelSize(png)! == (size, size, "png") && png.count < 500_000)
                }
            }
        }
    }

    @Test("png and zip: the stored PNGs byte for byte, with the manifest", arguments: StoreKind.allCases)
    func plain(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            try await makePack(repository, count: 3)
            let source = try await repository.packSource(named: "beach")
            _ = try await export(repository, "beach", .png, to: directory.appending(path: "out"))
            _ = try await export(repository, "beach", .zip, to: directory.appending(path: "out"))
            let folder = try exportedFiles(at: directory.appending(path: "out/beach"))
            let zipped = try exportedFiles(at: directory.appending(path: "out/beach.zip"))
            try checkManifest(folder)
            try checkManifest(zipped, at: "beach/manifest.json")
            for item in source.items {
                let name = String(format: "%03d-%lld.png", item.position, item.id)
                #expect(folder[name] == item.png)
                #expect(zipped["beach/" + name] == item.png)
            }
        }
    }

    @Test("the same pack exported twice gives byte-identical output, in every format", arguments: StoreKind.allCases)
    func reproducible(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            try await makePack(repository, count: 3)
            for format in ExportFormat.allCases {
                let first = try await export(repository, "beach", format, to: directory.appending(path: "a"))
                let second = try await export(repository, "beach", format, to: directory.appending(path: "b"))
                let one = try exportedFiles(at: URL(fileURLWithPath: first.parts[0].path))
                let two = try exportedFiles(at: URL(fileURLWithPath: second.parts[0].path))
                #expect(one == two, "\(format)")
                if format == .zip || format == .whatsapp {
                    #expect(try Data(contentsOf: URL(fileURLWithPath: first.parts[0].path)) == Data(contentsOf: URL(fileURLWithPath: second.parts[0].path)))
                }
            }
        }
    }

    @Test("a pack over the platform maximum is split evenly into NAME-1, NAME-2; WhatsApp under 3 is refused", arguments: StoreKind.allCases)
    func splitAndMinimum(kind: StoreKind) async throws {
        #expect(Exporter.split(count: 31, maximum: 30) == [0..<16, 16..<31])
        #expect(Exporter.split(count: 60, maximum: 30) == [0..<30, 30..<60])
        #expect(Exporter.split(count: 121, maximum: 120).map(\.count) == [61, 60])
        #expect(Exporter.split(count: 5, maximum: nil) == [0..<5])
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            let ids = try await addStickers(repository, count: 31, width: 24, height: 24)
            _ = try await repository.createPack(name: "big")
            _ = try await repository.addToPack("big", ids: ids)
            // WhatsApp's rules on a smaller canvas, to spare the machine 31 full-size encodings.
            var limits = PlatformLimits.of(.whatsapp)
            limits.canvas = .square(128)
            var options = ExportOptions(format: .whatsapp, outputDirectory: directory.appending(path: "out"))
            options.limitsOverride = limits
            let report = try await Exporter(options: options).run(try repository.packSource(named: "big"))
            #expect(report.parts.map(\.name) == ["big-1", "big-2"])
            #expect(report.parts.map(\.count) == [16, 15])
            let second = try exportedFiles(at: directory.appending(path: "out/big-2.wastickers"))
            let manifest = try checkManifest(second)
            #expect(manifest["part"] as? Int == 2 && manifest["parts"] as? Int == 2)
            #expect((manifest["stickers"] as! [[String: Any]]).first?["id"] as? Int == Int(ids[16]))
            #expect(String(decoding: second["title.txt"]!, as: UTF8.self) == "big (2/2)")

            _ = try await repository.createPack(name: "tiny")
            _ = try await repository.addToPack("tiny", ids: Array(ids.prefix(2)))
            await #expect(throws: ExportError.tooFewStickers(format: .whatsapp, count: 2, minimum: 3, source: PlatformLimits.of(.whatsapp).source)) {
                _ = try await export(repository, "tiny", .whatsapp, to: directory.appending(path: "out"))
            }
            _ = try await repository.createPack(name: "empty")
            await #expect(throws: ExportError.emptyPack(name: "empty")) {
                _ = try await export(repository, "empty", .png, to: directory.appending(path: "out"))
            }
            await #expect(throws: ExportError.pack(.notFound(name: "nope"))) {
                _ = try await Exporter(options: ExportOptions(format: .png, outputDirectory: directory)).run(try await sourceOrExportError(repository, "nope"))
            }
        }
    }

    @Test("a sticker that cannot fit fails the export, naming it, its size and the limit; nothing is written", arguments: StoreKind.allCases)
    func doesNotFit(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            let ids = try await addStickers(repository, count: 2, width: 64, height: 64)
            let noisy = try await record(repository, png: try noisePNG(width: 300, height: 300, seed: 3), width: 300, height: 300, seed: 55)
            _ = try await repository.createPack(name: "p")
            _ = try await repository.addToPack("p", ids: ids + [noisy])
            var limits = PlatformLimits.of(.imessage)
            limits.canvas = .square(300)
            limits.maxBytes = 20_000
            var options = ExportOptions(format: .imessage, outputDirectory: directory.appending(path: "out"))
            options.limitsOverride = limits
            do {
                _ = try await Exporter(options: options).run(try repository.packSource(named: "p"))
                Issue.record("the export should fail")
            } catch let error as ExportError {
                guard case .doesNotFit(let failures) = error else { Issue.record("unexpected \(error)"); return }
                #expect(failures.map(\.id) == [noisy])
                #expect(failures[0].smallestBytes > 20_000 && failures[0].limit == 20_000)
                let message = error.errorDescription ?? ""
                #expect(message.contains("sticker \(noisy)") && message.contains("20,000 bytes"))
            }
            #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "out/p.imessage").path))

            options.dryRun = true
            let report = try await Exporter(options: options).run(try repository.packSource(named: "p"))
            #expect(!report.ok)
            #expect(report.parts[0].files.filter { !$0.ok }.map(\.id) == [noisy])
            #expect(report.parts[0].files.filter(\.ok).count == 2)
            #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "out/p.imessage").path))
        }
    }

    @Test("nothing is overwritten without force; force replaces; dry runs write nothing; no temporary files are left", arguments: StoreKind.allCases)
    func forceAndDryRun(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            try await makePack(repository, count: 3)
            let out = directory.appending(path: "out")
            let dry = try await export(repository, "beach", .signal, to: out, dryRun: true)
            #expect(dry.ok && dry.dryRun)
            #expect(!FileManager.default.fileExists(atPath: out.path))
            for format in [ExportFormat.signal, .whatsapp] {
                _ = try await export(repository, "beach", format, to: out)
                await #expect(throws: ExportError.self) { _ = try await export(repository, "beach", format, to: out) }
                _ = try await export(repository, "beach", format, to: out, force: true)
            }
            // Something else in the way (a file where the folder goes) is replaced only with force too.
            try Data("x".utf8).write(to: out.appending(path: "beach"))
            await #expect(throws: ExportError.outputExists(path: out.appending(path: "beach").path)) { _ = try await export(repository, "beach", .png, to: out) }
            _ = try await export(repository, "beach", .png, to: out, force: true)
            #expect(try checkManifest(try exportedFiles(at: out.appending(path: "beach")))["format"] as? String == "png")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".") }
            #expect(leftovers.isEmpty)
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == ["beach", "beach.signal", "beach.wastickers"])
        }
    }

    @Test("no pack name can put a file outside the output folder", arguments: StoreKind.allCases)
    func pathSafety(kind: StoreKind) async throws {
        let cases = ["../x", "/abs", "a/b", "a\u{0}b", String(repeating: "n", count: 300), "\u{2215}etc\u{2215}passwd", "．．／x", "..", ".", ""]
        for name in cases {
            let component = ExportPath.component(name)
            #expect(ExportPath.isSafeRelative(component) && !component.contains("/") && !component.hasPrefix("."), "\(name) → \(component)")
            #expect(component.utf8.count <= 100)
        }
        for path in ["../x", "/abs", "a/../b", "a//b", "a\\b", "a\u{0}", "", "./a"] {
            #expect(!ExportPath.isSafeRelative(path), "\(path)")
        }
        #expect(ExportPath.isSafeRelative("Stickers.xcstickers/p.stickerpack/001-1.sticker/001-1.png"))

        // Names stored by an older or tampered catalog, past the validation: still confined.
        try await withTemporaryDirectory { directory in
            let repository = try await newCatalog(kind, directory)
            let ids = try await addStickers(repository, count: 3, width: 24, height: 24)
            _ = try await repository.createPack(name: "ok")
            _ = try await repository.addToPack("ok", ids: ids)
            let out = directory.appending(path: "deep/out")
            // PostgreSQL's text cannot hold NUL at all, so no catalog there can store that name.
            for evil in ["../escape", "/tmp/abs", "a/b", "x\u{0}y", String(repeating: "z", count: 300), "\u{2215}up"]
            where !(kind == .postgres && evil.contains("\u{0}")) {
                try await executeRaw("UPDATE pack SET name = ? WHERE id = (SELECT min(id) FROM pack)", [evil], on: repository)
                for format in [ExportFormat.png, .zip, .imessage] {
                    let report = try await Exporter(options: ExportOptions(format: format, outputDirectory: out, force: true)).run(try await repository.packSource(named: evil))
                    for part in report.parts {
                        #expect(URL(fileURLWithPath: part.path).deletingLastPathComponent().path == out.path)
                    }
                }
                try await executeRaw("UPDATE pack SET name = 'ok' WHERE id = (SELECT min(id) FROM pack)", on: repository)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appending(path: "deep").path) == ["out"])
            let catalogFiles: Set<String> = kind == .sqlite ? ["catalog.sqlite", "catalog.sqlite-wal", "catalog.sqlite-shm"] : []
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == catalogFiles.union(["deep"]))
        }
    }
}

/// `packSource`, with its error as an `ExportError` (as the CLI reports it).
func sourceOrExportError(_ repository: any CatalogStore, _ name: String) async throws(ExportError) -> PackSource {
    do {
        return try await repository.packSource(named: name)
    } catch {
        throw .pack(error)
    }
}
