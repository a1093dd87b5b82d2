import Foundation
import Synchronization
import TestProcessSupport
import Testing

/// Faults an unattended archival job meets, on the real binary: kill -9 at random moments, several
/// importers at once, a lock held too long, a full disk. Bounded for CI; STICKER_KILLS sets the
/// number of kills (the long run: STICKER_KILLS=50).
///
@Suite(.serialized, .needsModel, .timeLimit(.minutes(15))) struct FaultTests {
    static let kills = ProcessInfo.processInfo.environment["STICKER_KILLS"].flatMap(Int.init) ?? 6

    @Test func killNineDuringImportLosesNothing() async throws {
        let folder = try TemporaryFolder()
        let count = 12
        let photos = try Reliability.writeVariants(count, in: folder)
        var generator = SystemRandomNumberGenerator()
        var killedMidway = 0

        // Kills while a new catalog is being created and migrated: the next run creates or finishes it.
        for round in 0..<2 {
            let name = "fresh-\(round).sqlite"
            let importer = try CLI.start(["--catalog", name, "import", photos + "/photo-0.jpg"], in: folder)
            try await Task.sleep(for: .seconds(Double.random(in: 0.005...0.15, using: &generator)))
            kill(importer.pid, SIGKILL)
            _ = await importer.wait()
            let rerun = try await CLI.run(["--catalog", name, "import", photos + "/photo-0.jpg"], in: folder)
            #expect(rerun.status == 0, "fresh round \(round): \(rerun.stderr)")
            #expect(try await Reliability.verify(name, in: folder).status == 0)
        }

        // Kills during imports into an existing catalog; when a catalog is complete, the next one starts.
        var generation = 0
        var catalog = "c0.sqlite"
        try #require(try await CLI.run(["--catalog", catalog, "import", photos + "/photo-0.jpg"], in: folder).status == 0)
        for round in 0..<Self.kills {
            let importer = try CLI.start(["--catalog", catalog, "import", photos, "--jobs", "2"], in: folder)
            let delay = Double.random(in: 0.05...2.5, using: &generator)
            try await Task.sleep(for: .seconds(delay))
            let running = importer.process.isRunning
            kill(importer.pid, SIGKILL)
            let result = await importer.wait()
            if running && result.status == 128 + SIGKILL { killedMidway += 1 }

            let (status, report, stderr) = try await Reliability.verify(catalog, in: folder)
            #expect(status == 0, "round \(round) after \(delay)s: \(report) \(stderr)")
            // Every entry is complete (verify checks the stickers) and ok: these photos are all valid.
            let list = try await CLI.run(["--catalog", catalog, "list", "--json"], in: folder)
            let entries = list.json as? [[String: Any]] ?? []
            #expect(entries.allSatisfy { $0["status"] as? String == "ok" }, "round \(round): \(entries)")
            #expect(entries.count <= count)
            if entries.count == count || round == Self.kills - 1 {
                let rerun = try await CLI.run(["--catalog", catalog, "import", photos, "--json"], in: folder)
                #expect(rerun.status == 0, "\(rerun.stderr)")
                let after = try await CLI.run(["--catalog", catalog, "list", "--json"], in: folder)
                #expect((after.json as? [Any])?.count == count)
                #expect(try await Reliability.verify(catalog, in: folder).status == 0)
                generation += 1
                catalog = "c\(generation).sqlite"
                try #require(try await CLI.run(["--catalog", catalog, "import", photos + "/photo-0.jpg"], in: folder).status == 0)
            }
        }
        #expect(killedMidway >= 1, "at least one kill hit a running import")
        print("kill -9 during import: \(killedMidway) kills of a running import (of \(Self.kills) rounds, \(generation) catalogs completed), 2 during creation")
    }

    /// kill -9 at random moments of `reprocess` after a settings change: every entry stays complete
    /// (verify), with the old settings or the new, and a re-run leaves nothing stale.
    @Test func killNineDuringReprocessLosesNothing() async throws {
        let folder = try TemporaryFolder()
        let count = 10
        let photos = try Reliability.writeVariants(count, in: folder)
        let catalog = "c.sqlite"
        try #require(try await CLI.run(["--catalog", catalog, "import", photos, "--jobs", "2"], in: folder).status == 0)
        var generator = SystemRandomNumberGenerator()
        var killedMidway = 0
        var outline = 8
        var generations = 0
        for round in 0..<Self.kills {
            if try await staleCount(catalog, in: folder) == 0 {
                outline = outline == 8 ? 4 : 8
                try #require(try await CLI.run(["--catalog", catalog, "config", "set", "sticker.outline", "\(outline)"], in: folder).status == 0)
                generations += 1
            }
            let reprocess = try CLI.start(["--catalog", catalog, "reprocess", "--jobs", "2", "--json"], in: folder)
            let delay: Double
            // The kill, and whether it met a running process, on a thread of its own: on time however busy the test pool is.
            let process = reprocess.process, output = reprocess.outputURL
            let wasRunning = Mutex(false)
            let killNow: @Sendable () -> Void = {
                wasRunning.withLock { $0 = process.isRunning }
                kill(process.processIdentifier, SIGKILL)
            }
            if round.isMultiple(of: 2) {
                // Right after the first entry is done: mid-run on any machine, however fast the rest goes.
                let started = Date()
                await act(when: {
                    !process.isRunning || ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("\"reprocessed\"")
                }, every: .milliseconds(2), then: killNow)
                delay = Date().timeIntervalSince(started)
            } else {
                delay = Double.random(in: 0.05...2.5, using: &generator)
                await act(when: { false }, within: .seconds(delay), then: killNow)
            }
            let running = wasRunning.withLock { $0 }
            let result = await reprocess.wait()
            if running && result.status == 128 + SIGKILL { killedMidway += 1 }

            let (status, report, stderr) = try await Reliability.verify(catalog, in: folder)
            #expect(status == 0, "round \(round) after \(delay)s: \(report) \(stderr)")
            let list = try await CLI.run(["--catalog", catalog, "list", "--json"], in: folder)
            let entries = list.json as? [[String: Any]] ?? []
            #expect(entries.count == count && entries.allSatisfy { $0["status"] as? String == "ok" }, "round \(round): \(entries)")
        }
        let rerun = try await CLI.run(["--catalog", catalog, "reprocess", "--json"], in: folder)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try await staleCount(catalog, in: folder) == 0)
        #expect(try await Reliability.verify(catalog, in: folder).status == 0)
        #expect(killedMidway >= 1, "at least one kill hit a running reprocess")
        print("kill -9 during reprocess: \(killedMidway) kills of a running reprocess (of \(Self.kills) rounds, \(generations) settings changes)")
    }

    private func staleCount(_ catalog: String, in folder: TemporaryFolder) async throws -> Int {
        let stale = try await CLI.run(["--catalog", catalog, "list", "--stale", "--json"], in: folder)
        return try #require(stale.json as? [Any], "list --stale: \(stale.stdout) \(stale.stderr)").count
    }

    @Test func fourOverlappingImportersMakeOneEntryPerPhoto() async throws {
        let folder = try TemporaryFolder()
        let base = try Reliability.variantBase()
        // Four folders of 8 or so of 16 photos, overlapping: photo i is in folders i%4 and (i+1)%4
        // and, for even i, (i+2)%4; the same bytes under different paths.
        let unique = 16
        for index in 0..<unique {
            var targets: Set<Int> = [index % 4, (index + 1) % 4]
            if index.isMultiple(of: 2) { targets.insert((index + 2) % 4) }
            for target in targets {
                try folder.write(Reliability.variant(base, index), to: "set\(target)/photo-\(index).jpg")
            }
        }
        let runs = try (0..<4).map { target in
            try CLI.start(["--catalog", "c.sqlite", "import", folder.path("set\(target)"), "--jobs", "1", "--json"], in: folder)
        }
        for (index, run) in runs.enumerated() {
            let result = await run.wait()
            #expect(result.status == 0, "importer \(index): \(result.stderr)")
            #expect(!result.stderr.contains("locked") && !result.stderr.contains("busy"), "importer \(index): \(result.stderr)")
        }
        let list = try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder)
        let entries = list.json as? [[String: Any]] ?? []
        #expect(entries.count == unique)
        #expect(Set(entries.compactMap { $0["sha256"] as? String }).count == unique)
        #expect(try await Reliability.verify("c.sqlite", in: folder).status == 0)
    }

    @Test func aLockHeldPastTheTimeoutExits75AndSaysToRetry() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(2, in: folder)
        try #require(try await CLI.run(["--catalog", "c.sqlite", "import", photos + "/photo-0.jpg"], in: folder).status == 0)
        // Another process takes the write lock and keeps it for 20 s (killed at the end of the test).
        let holder = WatchedProcess()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); open(sys.argv[2],'w').close(); time.sleep(20)",
            folder.path("c.sqlite"), folder.path("locked"),
        ]
        try holder.run()
        defer { kill(holder.processIdentifier, SIGKILL) }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: folder.path("locked")), Date() < deadline {
            try await Task.sleep(for: .seconds(0.02))
        }
        try #require(FileManager.default.fileExists(atPath: folder.path("locked")), "python3 with sqlite3 is needed")

        let started = Date()
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos + "/photo-1.jpg"], in: folder, environment: ["CATALOG_BUSY_TIMEOUT": "0.5"])
        #expect(run.status == 75, "\(run.stderr)")
        #expect(run.stderr.contains("busy") && run.stderr.contains("retry"), "\(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 15, "the busy timeout came from CATALOG_BUSY_TIMEOUT")
        // Reading still works while the lock is held (WAL readers do not wait for writers).
        #expect(try await CLI.run(["--catalog", "c.sqlite", "list"], in: folder).status == 0)
    }

    @Test func aFullDiskStopsCleanlyAndARerunCompletes() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(12, in: folder)
        for index in 0..<4 {
            try #require(try await CLI.run(["--catalog", "c.sqlite", "import", photos + "/photo-\(index).jpg"], in: folder).status == 0)
        }
        let pages = (try FileManager.default.attributesOfItem(atPath: folder.path("c.sqlite"))[.size] as? Int ?? 0) / 4096
        let full = try await CLI.run(
            ["--catalog", "c.sqlite", "import", photos, "--jobs", "1"], in: folder,
            environment: ["STICKER_TEST_MAX_PAGE_COUNT": "\(pages + 8)"]
        )
        #expect(full.status == 74, "\(full.stdout) \(full.stderr)")
        #expect(full.stderr.contains("full"), "\(full.stderr)")
        #expect(try await Reliability.verify("c.sqlite", in: folder).status == 0)
        let list = try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder)
        let during = (list.json as? [Any])?.count ?? 0
        #expect(during >= 4 && during < 12, "earlier entries intact, the rest refused: \(during)")

        let rerun = try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let after = try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder)
        #expect((after.json as? [Any])?.count == 12)
        #expect(try await Reliability.verify("c.sqlite", in: folder).status == 0)
    }

    /// Root with mount namespaces (CI): a real full file system, a 192 KiB tmpfs private to one process.
    static let canMountTmpfs: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        // A one-time probe in a static initializer, which cannot await: the only blocking wait left.
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-m", "sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs $d && umount $d; s=$?; rmdir $d; exit $s"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    @Test(.enabled(if: canMountTmpfs, "needs root and mount namespaces (unshare -m)"))
    func aRealFullFileSystemStopsCleanlyAndARerunCompletes() async throws {
        let folder = try TemporaryFolder()
        let photos = try Reliability.writeVariants(12, in: folder)
        for index in 0..<3 {
            try #require(try await CLI.run(["--catalog", "c.sqlite", "import", photos + "/photo-\(index).jpg"], in: folder).status == 0)
        }
        let size = try FileManager.default.attributesOfItem(atPath: folder.path("c.sqlite"))[.size] as? Int ?? 0
        try FileManager.default.createDirectory(atPath: folder.path("tiny"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("after"), withIntermediateDirectories: true)
        // Inside a private mount namespace: a tmpfs a little larger than the catalog (+ room for the WAL
        // index and a few entries), the import, then the catalog files copied out before the mount goes.
        let script = """
            set -e
            mount -t tmpfs -o size=$(( ($1 + 49152 + 65536) / 1024 ))k tmpfs tiny
            cp c.sqlite tiny/
            set +e
            "$2" --catalog tiny/c.sqlite import "$3" --jobs 1 > import.out 2> import.err
            echo $? > import.status
            cp tiny/c.sqlite* after/
            """
        let run = try await CLI.run(
            ["-m", "sh", "-c", script, "sh", "\(size)", CLI.binary.path, photos], in: folder,
            environment: CLI.environment(in: folder), executable: URL(fileURLWithPath: "/usr/bin/unshare")
        )
        try #require(run.status == 0, "\(run.stderr)")
        let status = try String(contentsOfFile: folder.path("import.status"), encoding: .utf8)
        let stderr = try String(contentsOfFile: folder.path("import.err"), encoding: .utf8)
        #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "74", "\(stderr)")
        #expect(stderr.contains("full"), "\(stderr)")

        let (verified, report, verifyErr) = try await Reliability.verify("after/c.sqlite", in: folder)
        #expect(verified == 0, "\(report) \(verifyErr)")
        let during = (try await CLI.run(["--catalog", "after/c.sqlite", "list", "--json"], in: folder).json as? [Any])?.count ?? 0
        #expect(during >= 3 && during < 12, "earlier entries intact: \(during)")
        let rerun = try await CLI.run(["--catalog", "after/c.sqlite", "import", photos], in: folder)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect((try await CLI.run(["--catalog", "after/c.sqlite", "list", "--json"], in: folder).json as? [Any])?.count == 12)
    }
}
