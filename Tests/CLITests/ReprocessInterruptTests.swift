import Foundation
import TestProcessSupport
import Testing

/// `catalog reprocess` stopped mid-run on the real binary: SIGINT / SIGTERM commit what finished and
/// exit 130 / 143, `kill -9` leaves every entry old-and-complete or new-and-complete, and a re-run finishes.
@Suite(.needsModel, .timeLimit(.minutes(15))) struct ReprocessInterruptTests {
    /// Entries in the catalog: enough that a signal sent after the first finished entry lands mid-run.
    static let count = 16

    /// A catalog of `count` photos whose settings then changed, so every entry is stale.
    private func staleCatalog(in folder: TemporaryFolder, count: Int = Self.count) async throws {
        let photos = try folder.writeNumberedCopies(count, width: 960, height: 720)
        let imported = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--jobs", "2"], in: folder)
        try #require(imported.status == 0, "stderr: \(imported.stderr)")
        for (key, value) in [("sticker.size", "256"), ("palette.colors", "3")] {
            try #require(try await CLI.run(["--catalog", "c.sqlite", "config", "set", key, value], in: folder).status == 0)
        }
    }

    /// Starts a reprocess and sends it `signal` as soon as `finished` entries are reported on its NDJSON output.
    private func reprocessUntil(_ finished: Int, jobs: Int, in folder: TemporaryFolder, output: URL, then signal: Int32) async throws -> WatchedProcess {
        let process = try CLI.start(
            ["--catalog", "c.sqlite", "reprocess", "--jobs", "\(jobs)", "--json"], in: folder,
            stdout: output, stderr: output.appendingPathExtension("stderr")
        )
        await act(when: { !process.isRunning || Self.reported(finished, in: output) }) {
            kill(process.processIdentifier, signal)
        }
        return process
    }

    private static func reported(_ count: Int, in output: URL) -> Bool {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("\"event\":\"reprocessed\"") || $0.contains("\"event\": \"reprocessed\"") }.count >= count
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalStopsCleanlyAndARerunContinues(signal: Int32, expectedStatus: Int32) async throws {
        let folder = try TemporaryFolder()
        try await staleCatalog(in: folder)
        let output = folder.url.appendingPathComponent(".out")
        let process = try await reprocessUntil(1, jobs: 1, in: folder, output: output, then: signal)
        await process.exited()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == expectedStatus)

        let summary = try #require(folder.jsonLines(at: output).last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["interrupted"] as? Bool == true)
        let done = summary["reprocessed"] as? Int ?? 0
        #expect(done >= 1 && done < Self.count)
        #expect(summary["left"] as? Int == Self.count - done)
        let message = (try? String(contentsOf: output.appendingPathExtension("stderr"), encoding: .utf8)) ?? ""
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(message.contains("interrupted by \(name): \(done) \(done == 1 ? "entry" : "entries") done, \(Self.count - done) left; run catalog reprocess again"), "stderr: \(message)")

        let rerun = try await CLI.run(["--catalog", "c.sqlite", "reprocess", "--json"], in: folder)
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        #expect(rerun.jsonLines.last?["reprocessed"] as? Int == Self.count - done)
        #expect(rerun.jsonLines.last?["left"] as? Int == 0)
        #expect((try await CLI.run(["--catalog", "c.sqlite", "list", "--stale", "--json"], in: folder).json as? [Any])?.isEmpty == true)
    }

    /// A signal while reprocess is still looking for stale entries: nothing starts, and it ends like a
    /// signal mid-run, with the summary (none done, all left), the line saying so and 130 / 143.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalDuringTheScanForStaleEntriesEndsWithTheSummary(signal: Int32, expectedStatus: Int32) async throws {
        let folder = try TemporaryFolder()
        let count = 3
        try await staleCatalog(in: folder, count: count)
        let output = folder.url.appendingPathComponent(".out")
        // The scan pauses 1 s before each page (a test hook); the catalog is opened after the signals
        // are trapped, so once the process holds it open, a signal lands in the scan.
        let process = try CLI.start(
            ["--catalog", "c.sqlite", "reprocess", "--json"], in: folder,
            stdout: output, stderr: output.appendingPathExtension("stderr"), environment: ["STICKER_TEST_SCAN_PAUSE": "1"]
        )
        await act(when: { !process.isRunning || Self.holdsOpen(process.processIdentifier, fileNamed: "c.sqlite") }, within: .seconds(60)) {
            kill(process.processIdentifier, signal)
        }
        await process.exited()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == expectedStatus)

        let lines = folder.jsonLines(at: output)
        #expect(lines.count == 1)
        let summary = try #require(lines.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["interrupted"] as? Bool == true)
        #expect(summary["reprocessed"] as? Int == 0)
        #expect(summary["left"] as? Int == count)
        let message = (try? String(contentsOf: output.appendingPathExtension("stderr"), encoding: .utf8)) ?? ""
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(message.contains("interrupted by \(name): 0 entries done, \(count) left; run catalog reprocess again"), "stderr: \(message)")

        let rerun = try await CLI.run(["--catalog", "c.sqlite", "reprocess", "--json"], in: folder)
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        #expect(rerun.jsonLines.last?["reprocessed"] as? Int == count)
    }

    /// Whether process `pid` has a file called `name` open (Linux: its /proc/PID/fd links).
    private static func holdsOpen(_ pid: Int32, fileNamed name: String) -> Bool {
        let fds = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
        return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\($0)"))?.hasSuffix("/" + name) == true }
    }

    @Test func killMinus9LeavesEveryEntryOldOrNewAndComplete() async throws {
        let folder = try TemporaryFolder()
        try await staleCatalog(in: folder)
        let output = folder.url.appendingPathComponent(".out")
        let process = try await reprocessUntil(2, jobs: 2, in: folder, output: output, then: SIGKILL)
        await process.exited()
        #expect(process.terminationReason == .uncaughtSignal)

        let (old, new) = try await consistentEntries(in: folder)
        #expect(old + new == Self.count)
        #expect(new >= 2 && old >= 1, "killed after \(new) of \(Self.count)")

        let rerun = try await CLI.run(["--catalog", "c.sqlite", "reprocess", "--json"], in: folder)
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        #expect(rerun.jsonLines.last?["reprocessed"] as? Int == old)
        #expect(try await consistentEntries(in: folder) == (0, Self.count))
    }

    /// Checks every entry is complete and made either with the old settings (512 px, 5 colours) or the
    /// new ones (256 px, 3 colours), never a mix; returns how many of each.
    private func consistentEntries(in folder: TemporaryFolder) async throws -> (old: Int, new: Int) {
        var old = 0, new = 0
        for id in 1...Self.count {
            let show = try await CLI.run(["--catalog", "c.sqlite", "show", "\(id)", "--json"], in: folder)
            let entry = try #require(show.json as? [String: Any], "entry \(id): \(show.stderr)")
            #expect(entry["status"] as? String == "ok")
            let sticker = try #require(entry["sticker"] as? [String: Any], "entry \(id) has no sticker")
            let settings = try #require(sticker["settings"] as? [String: Any])
            let size = settings["size"] as? Int, colors = settings["paletteColors"] as? Int
            let longSide = max(sticker["width"] as? Int ?? 0, sticker["height"] as? Int ?? 0)
            let palette = (entry["palette"] as? [Any])?.count ?? -1
            #expect((sticker["bytes"] as? Int ?? 0) > 0)
            #expect(entry["exif"] is [String: Any])
            switch (size, colors) {
            case (512, 5): old += 1
            case (256, 3): new += 1
            default: Issue.record("entry \(id) has mixed settings: size \(String(describing: size)), colours \(String(describing: colors))")
            }
            #expect(longSide == size, "entry \(id): a \(longSide)-pixel sticker recorded as \(String(describing: size))")
            #expect(palette >= 0 && palette <= (colors ?? 0), "entry \(id): \(palette) colours recorded with \(String(describing: colors))")
        }
        try await checkStoredRows(in: folder)
        return (old, new)
    }

    /// With the sqlite3 shell: every sticker's PNG is there with the recorded length, every ok entry has a sticker.
    private func checkStoredRows(in folder: TemporaryFolder) async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { return }
        let shell = WatchedProcess()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [folder.path("c.sqlite"), """
            SELECT (SELECT count(*) FROM sticker s LEFT JOIN sticker_png p USING (photo_id) WHERE p.png IS NULL OR length(p.png) != s.bytes)
                 + (SELECT count(*) FROM photo WHERE status = 'ok' AND id NOT IN (SELECT photo_id FROM sticker));
            """]
        let pipe = Pipe()
        shell.standardOutput = pipe
        try shell.run()
        await shell.exited()
        let answer = String(decoding: await pipe.fileHandleForReading.readUntilClosed(), as: UTF8.self)
        #expect(answer.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }
}
