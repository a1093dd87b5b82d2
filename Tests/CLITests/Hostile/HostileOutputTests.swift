import Foundation
import Testing

/// Outputs in hostile places: existing files, folders, FIFOs, sockets, device nodes, a full disk
/// (/dev/full) and closed pipes. Nothing is replaced that is not ours, and every failed write is reported.
@Suite(.timeLimit(.minutes(15))) struct HostileOutputTests {
    /// An input photo and an existing file where `cutout -o` would write.
    private func cutoutSetUp() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let input = try folder.write(Hostile.photo(), to: "photo.jpg")
        return (folder, input)
    }

    @Test func cutoutDoesNotReplaceAnExistingFileWithoutForce() async throws {
        let (folder, input) = try cutoutSetUp()
        let existing = try folder.write(Array("precious".utf8), to: "out.png")
        let before = TreeRecord(folder)
        let run = try await CLI.run(["cutout", input, "-o", existing], in: folder)
        #expect(run.status == 74)
        #expect(run.stderr.contains("out.png: it exists; use --force"), "\(run.stderr)")
        #expect(TreeRecord(folder) == before)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "precious")
    }

    @Test(.needsModel) func cutoutReplacesAFileWithForceThroughARename() async throws {
        let (folder, input) = try cutoutSetUp()
        let existing = try folder.write(Array("old".utf8), to: "out.png")
        let run = try await CLI.run(["cutout", input, "-o", existing, "--force"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: existing))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // No temporary file is left beside it.
        #expect(Reliability.files(in: folder) == ["photo.jpg", "out.png"])
    }

    /// A folder, a FIFO and a socket are never replaced, even with --force: exit 74 and a reason.
    @Test(arguments: ["folder", "fifo", "socket"])
    func cutoutRefusesSpecialFilesEvenWithForce(kind: String) async throws {
        let (folder, input) = try cutoutSetUp()
        let target = folder.path("target.png")
        var socketDescriptor: Int32 = -1
        switch kind {
        case "folder": try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        case "fifo": try Hostile.makeFIFO(target)
        default: socketDescriptor = try Hostile.makeSocket(target)
        }
        defer { if socketDescriptor >= 0 { close(socketDescriptor) } }
        let before = TreeRecord(folder)
        for force in [false, true] {
            let run = try await CLI.run(["cutout", input, "-o", target] + (force ? ["--force"] : []), in: folder)
            #expect(run.status == 74, "\(kind) force=\(force): \(run.stderr)")
            #expect(run.stderr.contains(kind == "folder" ? "is a folder" : "not a regular file"), "\(run.stderr)")
            #expect(!run.stderr.contains("Error Domain"))
        }
        #expect(TreeRecord(folder) == before)
    }

    /// A device node (made with mknod, so root only; CI runs as root) and /dev/null itself.
    @Test func cutoutNeverReplacesADeviceNode() async throws {
        let (folder, input) = try cutoutSetUp()
        let devNull = try await CLI.run(["cutout", input, "-o", "/dev/null", "--force"], in: folder)
        #expect(devNull.status == 74)
        #expect(devNull.stderr.contains("character device"), "\(devNull.stderr)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)

        guard Hostile.isRoot else {
            print("note: not root: the mknod device-node case of cutoutNeverReplacesADeviceNode is skipped")
            return
        }
        let device = folder.path("device.png")
        #expect(Hostile.makeDevice(device))
        let run = try await CLI.run(["cutout", input, "-o", device, "--force"], in: folder)
        #expect(run.status == 74)
        #expect(lstat(device, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func backupRefusesSpecialFilesEvenWithForce() async throws {
        let folder = try TemporaryFolder()
        #expect(try await CLI.run(["--catalog", "c.sqlite", "pack", "create", "p"], in: folder).status == 0)
        try Hostile.makeFIFO(folder.path("backup.fifo"))
        let before = TreeRecord(folder)
        let run = try await CLI.run(["--catalog", "c.sqlite", "backup", "backup.fifo", "--force"], in: folder)
        #expect(run.status == 74)
        #expect(run.stderr.contains("not a regular file"), "\(run.stderr)")
        let devNull = try await CLI.run(["--catalog", "c.sqlite", "backup", "/dev/null", "--force"], in: folder)
        #expect(devNull.status == 74)
        #expect(TreeRecord(folder) == before)
        try await Hostile.expectSound("c.sqlite", in: folder)
    }

    /// A catalog with one sticker in pack `p` (the fast predictor: the cut-out does not matter here).
    private func packWithASticker(in folder: TemporaryFolder) async throws {
        let photo = try folder.write(Hostile.photo(), to: "photos/a.jpg")
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photo, "--pack", "p"], in: folder, environment: Hostile.fastImport)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func exportIntoAFileSaysItIsNotAFolder() async throws {
        let folder = try TemporaryFolder()
        try await packWithASticker(in: folder)
        try folder.write(Array("x".utf8), to: "afile")
        let before = TreeRecord(folder)
        let run = try await CLI.run(["--catalog", "c.sqlite", "export", "p", "-o", "afile"], in: folder)
        #expect(run.status == 74)
        #expect(run.stderr.contains("not a folder"), "\(run.stderr)")
        #expect(!run.stderr.contains("File exists"))
        #expect(!run.stderr.contains("Error Domain"))
        #expect(TreeRecord(folder) == before)
    }

    @Test func exportNeverReplacesAFIFOEvenWithForce() async throws {
        let folder = try TemporaryFolder()
        try await packWithASticker(in: folder)
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: false)
        try Hostile.makeFIFO(folder.path("out/p.zip"))
        let before = TreeRecord(folder)
        let run = try await CLI.run(["--catalog", "c.sqlite", "export", "p", "--format", "zip", "-o", "out", "--force"], in: folder)
        #expect(run.status == 74)
        #expect(run.stderr.contains("not a regular file"), "\(run.stderr)")
        #expect(TreeRecord(folder) == before)
    }

    @Test func previewRefusesADeviceEvenWithForce() async throws {
        let folder = try TemporaryFolder()
        try await packWithASticker(in: folder)
        let run = try await CLI.run(["--catalog", "c.sqlite", "preview", "p", "-o", "/dev/null", "--force"], in: folder)
        #expect(run.status == 74)
        #expect(run.stderr.contains("character device"), "\(run.stderr)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        let existing = try folder.write(Array("keep".utf8), to: "sheet.png")
        let again = try await CLI.run(["--catalog", "c.sqlite", "preview", "p", "-o", existing], in: folder)
        #expect(again.status == 74)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep")
        try await Hostile.expectSound("c.sqlite", in: folder)
    }

    // MARK: - Standard output that fails

    @Test func listOnAFullDiskExits74() async throws {
        let folder = try TemporaryFolder()
        #expect(try await CLI.run(["--catalog", "c.sqlite", "pack", "create", "p"], in: folder).status == 0)
        for arguments in [["list", "--json"], ["pack", "list", "--json"], ["stats"], ["config", "list"]] {
            let run = try await Hostile.runOnFullDisk(["--catalog", "c.sqlite"] + arguments, in: folder)
            #expect(run.status == 74, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("disk full"), "\(arguments): \(run.stderr)")
        }
        try await Hostile.expectSound("c.sqlite", in: folder)
    }

    @Test(.needsModel) func cutoutToAFullDiskExits74WithoutATrap() async throws {
        let folder = try TemporaryFolder()
        let input = try folder.write(Hostile.photo(), to: "photo.jpg")
        let run = try await Hostile.runOnFullDisk(["cutout", input, "-o", "-"], in: folder)
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.contains("disk full"))
        #expect(!run.stderr.contains("Fatal error"))
    }

    /// A closed pipe ends a short command quietly (141, as if SIGPIPE had ended it; SIGPIPE is ignored here).
    @Test func aClosedPipeEndsAShortCommandQuietly() async throws {
        let folder = try TemporaryFolder()
        #expect(try await CLI.run(["--catalog", "c.sqlite", "pack", "create", "p"], in: folder).status == 0)
        let run = try await Hostile.runWithClosedPipe(["--catalog", "c.sqlite", "pack", "list", "--json"], in: folder)
        #expect(run.status == 141)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    /// A long import whose stdout closes stops like on SIGINT: finished files are kept, stderr says so.
    @Test func aClosedPipeStopsALongImportAndKeepsWhatIsDone() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(8, in: folder)
        let run = try await Hostile.runWithClosedPipe(
            ["--catalog", "c.sqlite", "import", photos, "--json", "--jobs", "1"], in: folder, environment: Hostile.fastImport
        )
        #expect(run.status == 141, "\(run.stderr)")
        #expect(run.stderr.contains("standard output failed (closed pipe): stopped"), "\(run.stderr)")
        #expect(!run.stderr.contains("Fatal error"))
        try await Hostile.expectSound("c.sqlite", in: folder)
        // A re-run finishes the work.
        let rerun = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--json"], in: folder, environment: Hostile.fastImport)
        #expect(rerun.status == 0)
        let summary = try #require(rerun.jsonLines.last)
        #expect((summary["imported"] as? Int ?? 0) + (summary["duplicates"] as? Int ?? 0) == 8)
    }
}
