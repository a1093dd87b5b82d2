import Foundation
import TestProcessSupport
import Processing
import SampleImages
import Testing

/// `catalog show`, `list` and `stats`, and how the CLI treats catalogs it must not touch.
@Suite(.needsModel, .timeLimit(.minutes(15))) struct ReadCommandsTests {
    /// Imports the demo samples and returns the folder, with the catalog at `c.sqlite`.
    private func importedSamples() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let photos = try folder.writeSamples()
        let run = try await CLI.run(["--catalog", "c.sqlite", "import", photos, "--jobs", "1"], in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return folder
    }

    @Test func showJSONHasExactlyTheContractKeys() async throws {
        let folder = try await importedSamples()
        let show = try await CLI.run(["--catalog", "c.sqlite", "show", "1", "--json"], in: folder)
        #expect(show.status == 0, "stderr: \(show.stderr)")
        let detail = try #require(show.json as? [String: Any])
        #expect(Set(detail.keys) == ["id", "sha256", "path", "status", "failure", "format", "width", "height", "exif", "sticker", "palette", "guidance", "clip", "livePhoto"])
        let exif = try #require(detail["exif"] as? [String: Any])
        #expect(Set(exif.keys) == [
            "make", "model", "lensModel", "takenAt", "exposureTime", "fNumber", "iso", "focalLength",
            "orientation", "gpsLatitude", "gpsLongitude", "gpsAltitude",
        ])
        let sticker = try #require(detail["sticker"] as? [String: Any])
        #expect(Set(sticker.keys) == ["width", "height", "bytes", "pipelineVersion", "settings"])
        #expect(detail["failure"] is NSNull)
        #expect(detail["palette"] is [Any])
    }

    @Test func showReportsTheSamplePhotoEXIF() async throws {
        let folder = try await importedSamples()
        // Files are imported in name order; the Tokyo photo is the orange ball.
        let list = try #require(try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder).json as? [[String: Any]])
        let tokyo = try #require(list.first { ($0["path"] as? String)?.hasSuffix("orange-ball-tokyo.jpg") == true })
        let show = try await CLI.run(["--catalog", "c.sqlite", "show", "\(tokyo["id"] as? Int ?? 0)", "--json"], in: folder)
        let detail = try #require(show.json as? [String: Any])
        let exif = try #require(detail["exif"] as? [String: Any])
        #expect(exif["make"] as? String == "Sticker Labs")
        #expect(exif["model"] as? String == "Pocket One")
        #expect(exif["lensModel"] as? String == "28mm f/2.8")
        #expect(exif["takenAt"] as? String == "2026-04-05T14:03:22+09:00")
        #expect(exif["iso"] as? Int == 100)
        #expect(abs((exif["gpsLatitude"] as? Double ?? 0) - 35.6586) < 1e-4)
        #expect(abs((exif["gpsLongitude"] as? Double ?? 0) - 139.7454) < 1e-4)
        #expect(detail["format"] as? String == "jpeg")
        #expect(detail["width"] as? Int == 320)
        #expect(detail["height"] as? Int == 240)
        let sticker = try #require(detail["sticker"] as? [String: Any])
        // The cut-out ball, cropped: about as wide as high; its long side is the sticker size at
        // most (in a 320 x 240 photo the ball is enlarged only twice, short of 512).
        let stickerWidth = try #require(sticker["width"] as? Int), stickerHeight = try #require(sticker["height"] as? Int)
        #expect(max(stickerWidth, stickerHeight) <= 512 && min(stickerWidth, stickerHeight) * 5 > max(stickerWidth, stickerHeight) * 4,
                "\(stickerWidth)x\(stickerHeight)")
        #expect(sticker["pipelineVersion"] as? Int == PhotoProcessor.pipelineVersion)
        let settings = try #require(sticker["settings"] as? [String: Any])
        #expect(settings["size"] as? Int == 512 && settings["outline"] as? Int == 8 && settings["shadow"] as? Bool == false)
    }

    @Test func rotatedPhotoReportsItsOrientedSize() async throws {
        let folder = try await importedSamples()
        let list = try #require(try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder).json as? [[String: Any]])
        // Orientation 6: stored 240x320 on disk, shown 320x240.
        let reykjavik = try #require(list.first { ($0["path"] as? String)?.hasSuffix("teal-star-reykjavik.jpg") == true })
        let detail = try #require(try await CLI.run(["--catalog", "c.sqlite", "show", "\(reykjavik["id"] as? Int ?? 0)", "--json"], in: folder).json as? [String: Any])
        #expect(detail["width"] as? Int == 320)
        #expect(detail["height"] as? Int == 240)
        #expect((detail["exif"] as? [String: Any])?["orientation"] as? Int == 6)
        #expect((detail["exif"] as? [String: Any])?["gpsLongitude"] as? Double ?? 0 < 0, "west is negative")
    }

    @Test func humanOutputIsReadable() async throws {
        let folder = try await importedSamples()
        let list = try await CLI.run(["--catalog", "c.sqlite", "list"], in: folder)
        #expect(list.status == 0)
        #expect(list.stdout.contains("orange-ball-tokyo.jpg"))
        let entries = try #require(try await CLI.run(["--catalog", "c.sqlite", "list", "--json"], in: folder).json as? [[String: Any]])
        let tokyo = try #require(entries.first { ($0["path"] as? String)?.hasSuffix("orange-ball-tokyo.jpg") == true })
        let show = try await CLI.run(["--catalog", "c.sqlite", "show", "\(tokyo["id"] as? Int ?? 0)"], in: folder)
        #expect(show.status == 0)
        #expect(show.stdout.contains("Sticker Labs Pocket One"))
        #expect(show.stdout.contains("1/500 s"))
        let stats = try await CLI.run(["--catalog", "c.sqlite", "stats"], in: folder)
        #expect(stats.status == 0)
        #expect(!stats.stdout.isEmpty)
    }

    @Test func statsJSONCountsEntries() async throws {
        let folder = try await importedSamples()
        let stats = try await CLI.run(["--catalog", "c.sqlite", "stats", "--json"], in: folder)
        #expect(stats.status == 0)
        let object = try #require(stats.json as? [String: Any])
        let count = try SamplePhotos.demoStills(width: 320, height: 240).count
        #expect(object["total"] as? Int == count)
        #expect(object["ok"] as? Int == count)
        #expect(object["failed"] as? Int == 0)
    }

    @Test func unknownIdIsAClearError() async throws {
        let folder = try await importedSamples()
        let show = try await CLI.run(["--catalog", "c.sqlite", "show", "999"], in: folder)
        #expect(show.status == 65)
        #expect(show.stderr.contains("999"))
    }

    @Test func readingAMissingCatalogCreatesNothing() async throws {
        let folder = try TemporaryFolder()
        let list = try await CLI.run(["--catalog", "absent.sqlite", "list"], in: folder)
        #expect(list.status == 74)
        #expect(list.stderr.contains("absent.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("absent.sqlite")))
    }

    @Test func notACatalogIsRefusedUntouched() async throws {
        let folder = try TemporaryFolder()
        let bytes = Array("this is a text file, not SQLite, and it is long enough to look like something".utf8)
        let path = try folder.write(bytes, to: "notes.sqlite")
        for arguments in [["list"], ["import", path]] {
            let run = try await CLI.run(["--catalog", path] + arguments, in: folder)
            #expect(run.status == 65, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("notes.sqlite"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
    }

    @Test func newerCatalogIsRefusedUntouched() async throws {
        let folder = try await importedSamples()
        let catalog = folder.path("c.sqlite")
        let sqlite = WatchedProcess()
        // Simulate a catalog written by a future version: one migration this binary doesn't know.
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO grdb_migrations VALUES ('9999_from_the_future')\"); c.commit(); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()", catalog]
        try sqlite.run()
        await sqlite.exited()
        try #require(sqlite.terminationStatus == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: catalog))
        for arguments in [["list"], ["import", folder.path("photos")]] {
            let run = try await CLI.run(["--catalog", "c.sqlite"] + arguments, in: folder)
            #expect(run.status == 65, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("newer"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == before)
    }
}
