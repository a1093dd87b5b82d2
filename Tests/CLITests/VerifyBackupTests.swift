import Foundation
import TestProcessSupport
import Testing

/// `catalog verify` and `catalog backup` on the real binary.
@Suite(.needsModel, .timeLimit(.minutes(15))) struct VerifyBackupTests {
    private func importedCatalog(_ count: Int = 6) async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(count, in: folder)
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder)
        try #require(run.status == 0, "\(run.stderr)")
        return folder
    }

    @Test func aFreshCatalogIsSound() async throws {
        let folder = try await importedCatalog()
        let (status, report, stderr) = try await Reliability.verify("c.sqlite", in: folder)
        #expect(status == 0, "\(stderr)")
        #expect(report["sound"] as? Bool == true)
        #expect(report["entries"] as? Int == 6)
        #expect((report["problems"] as? [Any])?.isEmpty == true)
        #expect((report["missingSources"] as? [Any])?.isEmpty == true)
        let human = try await CLI.run(["--catalog", "c.sqlite", "verify"], in: folder)
        #expect(human.status == 0)
        #expect(human.stdout.contains("sound"))
    }

    @Test func missingSourcesAreListedButNotAFault() async throws {
        let folder = try await importedCatalog()
        try FileManager.default.removeItem(atPath: folder.path("many/photo-2.jpg"))
        let (status, report, _) = try await Reliability.verify("c.sqlite", in: folder)
        #expect(status == 0)
        let missing = try #require(report["missingSources"] as? [[String: Any]])
        #expect(missing.count == 1)
        #expect((missing.first?["path"] as? String)?.hasSuffix("many/photo-2.jpg") == true)
    }

    @Test func incompleteEntriesAndBadPalettesAreFound() async throws {
        let folder = try await importedCatalog()
        let damaged = try await Reliability.sql(folder.path("c.sqlite"), """
            DELETE FROM sticker_png WHERE photo_id = 1;
            UPDATE sticker SET bytes = bytes + 1 WHERE photo_id = 2;
            DELETE FROM palette_color WHERE photo_id = 3;
            INSERT INTO palette_color (photo_id, rank, hex, l, a, b, share) VALUES (3, 0, '#ffffff', 1, 0, 0, 0.5);
            INSERT INTO palette_color (photo_id, rank, hex, l, a, b, share) VALUES (3, 2, '#000000', 0, 0, 0, 0.75);
            DELETE FROM palette_color WHERE photo_id = 4;
            DELETE FROM sticker WHERE photo_id = 4;
            """)
        try #require(damaged)
        let (status, report, _) = try await Reliability.verify("c.sqlite", in: folder)
        #expect(status == 65)
        #expect(report["sound"] as? Bool == false)
        let problems = try #require(report["problems"] as? [[String: Any]])
        let found = Set(problems.map { "\($0["check"] as? String ?? "")/\($0["id"] as? Int ?? 0)" })
        #expect(found.isSuperset(of: ["incomplete-entry/1", "sticker-size/2", "palette/3", "incomplete-entry/4"]), "\(problems)")
        let human = try await CLI.run(["--catalog", "c.sqlite", "verify"], in: folder)
        #expect(human.status == 65)
        #expect(human.stdout.contains("entry 1 has no sticker PNG"))
    }

    /// The palette's R*Tree (migration 0002, kept by triggers) must hold every colour, at its place, and
    /// nothing else.
    @Test func thePaletteIndexMustMatchThePalette() async throws {
        let folder = try await importedCatalog(2)
        let catalog = folder.path("c.sqlite")
        try #require(try await Reliability.sql(catalog, """
            DELETE FROM palette_color;
            INSERT INTO palette_color (id, photo_id, rank, hex, l, a, b, share) VALUES (1, 1, 0, '#808080', 0.5, 0.01, -0.02, 0.9);
            INSERT INTO palette_color (id, photo_id, rank, hex, l, a, b, share) VALUES (2, 2, 0, '#808080', 0.6, 0.01, -0.02, 0.9);
            """))
        var (status, report, _) = try await Reliability.verify("c.sqlite", in: folder)
        #expect(status == 0, "\(report)")
        #expect(report["paletteIndexChecked"] as? Bool == true)

        try #require(try await Reliability.sql(catalog, """
            DELETE FROM palette_index WHERE id IN (1, 2);
            INSERT INTO palette_index VALUES (2, 0.9, 0.9, 0.01, 0.01, -0.02, -0.02, 0.9, 0.9, 2);
            INSERT INTO palette_index VALUES (77, 0, 0, 0, 0, 0, 0, 0, 0, 1);
            """))
        (status, report, _) = try await Reliability.verify("c.sqlite", in: folder)
        #expect(status == 65)
        let messages = (report["problems"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.contains { $0.contains("colour 1 is missing") }, "\(messages)")
        #expect(messages.contains { $0.contains("colour 2 is indexed at other coordinates") }, "\(messages)")
        #expect(messages.contains { $0.contains("row 77 has no palette colour") }, "\(messages)")
    }

    @Test func aDamagedFileIsNotSound() async throws {
        let folder = try await importedCatalog(12)
        let path = folder.path("c.sqlite")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count > 4 * 4096)
        // Scribble over the second and third pages (schema and table b-tree pages), keeping the header.
        for index in 4096..<(3 * 4096) { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try await CLI.run(["--catalog", "c.sqlite", "verify"], in: folder)
        #expect(run.status == 65, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("problem") || run.stderr.contains("c.sqlite"))
    }

    @Test func backupIsAVerifiedCatalogAndRefusesToOverwrite() async throws {
        let folder = try await importedCatalog()
        let backup = try await CLI.run(["--catalog", "c.sqlite", "backup", "b.sqlite"], in: folder)
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(try await Reliability.verify("b.sqlite", in: folder).status == 0)
        let list = try await CLI.run(["--catalog", "b.sqlite", "list", "--json"], in: folder)
        #expect((list.json as? [Any])?.count == 6)

        let again = try await CLI.run(["--catalog", "c.sqlite", "backup", "b.sqlite"], in: folder)
        #expect(again.status == 74)
        #expect(again.stderr.contains("--force"))
        let forced = try await CLI.run(["--catalog", "c.sqlite", "backup", "b.sqlite", "--force"], in: folder)
        #expect(forced.status == 0, "\(forced.stderr)")
        let onItself = try await CLI.run(["--catalog", "c.sqlite", "backup", "c.sqlite", "--force"], in: folder)
        #expect(onItself.status == 74)
        let noFolder = try await CLI.run(["--catalog", "c.sqlite", "backup", "nowhere/b.sqlite"], in: folder)
        #expect(noFolder.status == 74)
        // No temporary file is left beside the backups.
        #expect(Reliability.files(in: folder).filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func backupWhileAnotherProcessImportsIsConsistent() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(12, in: folder)
        try #require(try await CLI.run(["--catalog", "c.sqlite", "import", photos + "/photo-0.jpg"], in: folder).status == 0)
        let importer = try CLI.start(["--catalog", "c.sqlite", "import", photos, "--jobs", "2"], in: folder)
        var copies: [String] = []
        for index in 0..<4 where importer.process.isRunning || index == 0 {
            let name = "b\(index).sqlite"
            let run = try await CLI.run(["--catalog", "c.sqlite", "backup", name], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            copies.append(name)
            try await Task.sleep(for: .seconds(0.2))
        }
        let imported = await importer.wait()
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("locked"))
        for copy in copies {
            let (status, report, stderr) = try await Reliability.verify(copy, in: folder)
            #expect(status == 0, "\(copy): \(report) \(stderr)")
            #expect((report["entries"] as? Int ?? 0) >= 1)
        }
    }

    @Test func aSettingWrittenAsBytesFromOutsideDoesNotStopVerify() async throws {
        let folder = try await importedCatalog(1)
        try #require(try await Reliability.sql(folder.path("c.sqlite"), "INSERT INTO setting VALUES ('padding', randomblob(4096))"))
        #expect(try await Reliability.verify("c.sqlite", in: folder).status == 0)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func anInterruptedBackupLeavesNoTemporaryFile(signal: Int32, expectedStatus: Int32) async throws {
        let folder = try await importedCatalog(2)
        // 150 MB of padding, so the copy takes long enough to be interrupted.
        try #require(try await Reliability.sql(folder.path("c.sqlite"), "INSERT INTO setting VALUES ('padding', randomblob(150 * 1024 * 1024))"))
        let backup = try CLI.start(["--catalog", "c.sqlite", "backup", "b.sqlite"], in: folder)
        let folderPath = folder.url.path, process = backup.process
        await act(when: {
            !process.isRunning || ((try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []).contains { $0.hasPrefix(".b.sqlite.tmp-") }
        }, within: .seconds(30)) {
            kill(process.processIdentifier, signal)
        }
        let result = await backup.wait()
        #expect(Reliability.files(in: folder).filter { $0.contains(".tmp-") }.isEmpty)
        if FileManager.default.fileExists(atPath: folder.path("b.sqlite")) {
            // The copy was complete before the signal arrived (a loaded machine): then it is whole, and
            // the exit says so (0 when the signal came after the last check, else 130/143).
            #expect([0, expectedStatus].contains(result.status), "\(result.stderr)")
            #expect(try await Reliability.verify("b.sqlite", in: folder).status == 0)
        } else {
            #expect(result.status == expectedStatus, "\(result.stderr)")
            #expect(result.stderr.contains("no backup written"), "\(result.stderr)")
        }
    }
}
