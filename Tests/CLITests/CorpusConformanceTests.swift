import Foundation
import Testing

/// Real third-party files (fetched by `../shared/corpus/fetch.sh`, pointed to by $STICKER_CORPUS):
/// camera JPEGs must import with the right EXIF, broken and hostile files must fail by name,
/// and nothing may crash or hang. Skipped when the corpus is not there.
@Suite(.enabled(if: Corpus.root != nil, "set STICKER_CORPUS to a folder made by ../shared/corpus/fetch.sh"), .needsModel, .timeLimit(.minutes(15)))
struct CorpusConformanceTests {
    /// Imports `subfolders` of the corpus into a fresh catalog, one file at a time, timing each file by the
    /// arrival of its event: no file may take longer than `Corpus.perFileSeconds`, and an import that makes
    /// no progress for three times that is killed (a hang) and recorded as an issue. Returns the events by
    /// file name relative to the corpus.
    /// `realCutout: false` puts the centred-ellipse stand-in in the network's place
    /// (`STICKER_TEST_PREDICTOR=centre`): the decoders are under test, and the network would cost minutes.
    private func importCorpus(_ subfolders: [String], folder: TemporaryFolder, realCutout: Bool = true) async throws -> (result: CLIResult, events: [String: [String: Any]]) {
        let root = try #require(Corpus.root)
        let paths = subfolders.map { root.appendingPathComponent($0).path }
        let run = try CLI.start(
            ["--catalog", "c.sqlite", "import", "--json", "--jobs", "1"] + paths, in: folder,
            environment: realCutout ? [:] : ["STICKER_TEST_PREDICTOR": "centre"]
        )
        var seen = 0
        var last = Date()
        var slowest = (path: "", seconds: 0.0)
        while run.process.isRunning {
            try await Task.sleep(for: .seconds(0.05))
            let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: true)
            let now = Date()
            if lines.count > seen {
                let gap = now.timeIntervalSince(last)
                if gap > slowest.seconds { slowest = (String(lines[seen].prefix(300)), gap) }
                seen = lines.count
                last = now
            } else if now.timeIntervalSince(last) > 3 * Corpus.perFileSeconds {
                kill(run.pid, SIGKILL)
                Issue.record("import hung: no progress for \(Int(3 * Corpus.perFileSeconds)) s after \(lines.last.map(String.init) ?? "the start")")
                break
            }
        }
        let result = await run.wait()
        #expect(slowest.seconds < Corpus.perFileSeconds, "slowest file took \(slowest.seconds) s: \(slowest.path)")
        print("corpus \(subfolders.joined(separator: ", ")): \(seen) files, slowest \(String(format: "%.2f", slowest.seconds)) s: \(slowest.path.prefix(160))")
        var events: [String: [String: Any]] = [:]
        // A file's own event; a near-duplicate note follows an import and says nothing of the file's outcome.
        for event in result.jsonLines where event["event"] as? String != "near-duplicate" {
            guard let path = event["path"] as? String else { continue }
            events[String(path.dropFirst(root.path.count + 1))] = event
        }
        return (result, events)
    }

    private func detail(_ event: [String: Any]?, folder: TemporaryFolder) async throws -> [String: Any] {
        let id = try #require(event?["id"] as? Int, "no entry for \(String(describing: event))")
        let show = try await CLI.run(["--catalog", "c.sqlite", "show", "\(id)", "--json"], in: folder)
        return try #require(show.json as? [String: Any])
    }

    @Test func cameraJPEGsImportWithTheirEXIF() async throws {
        let folder = try TemporaryFolder()
        let (result, events) = try await importCorpus(["exif"], folder: folder)
        #expect([0, 1].contains(result.status), "no crash: \(result.stderr.suffix(2000))")
        #expect(events.count == Corpus.fileCount(in: "exif"), "one event per file")

        // Values read once with `exiftool -n`.
        let nikon = try await detail(events["exif/goexif/sample1.jpg"], folder: folder)
        #expect(nikon["status"] as? String == "ok")
        let nikonExif = try #require(nikon["exif"] as? [String: Any])
        #expect(nikonExif["make"] as? String == "NIKON CORPORATION")
        #expect(nikonExif["model"] as? String == "NIKON D2H")
        #expect(abs((nikonExif["gpsLatitude"] as? Double ?? 0) - 39.915556) < 1e-4)
        #expect(abs((nikonExif["gpsLongitude"] as? Double ?? 0) - 116.390833) < 1e-4)
        #expect(nikonExif["takenAt"] as? String == "2003-11-23T18:07:37")
        #expect(nikonExif["fNumber"] as? Double == 4.5)
        #expect(nikonExif["exposureTime"] as? Double == 0.008)
        #expect(nikon["width"] as? Int == 500)
        #expect(nikon["height"] as? Int == 375)

        let iphone = try await detail(events["exif/goexif/samples/has-lens-info.jpg"], folder: folder)
        let iphoneExif = try #require(iphone["exif"] as? [String: Any])
        #expect(iphoneExif["make"] as? String == "Apple")
        #expect(iphoneExif["model"] as? String == "iPhone 4S")
        #expect(iphoneExif["lensModel"] as? String == "iPhone 4S back camera 4.28mm f/2.4")
        #expect(iphoneExif["orientation"] as? Int == 6)
        #expect(abs((iphoneExif["gpsLatitude"] as? Double ?? 0) - 59.332547) < 1e-4)
        #expect(abs((iphoneExif["gpsLongitude"] as? Double ?? 0) - 18.064942) < 1e-4)
        #expect(abs((iphoneExif["gpsAltitude"] as? Double ?? 0) - 29) < 0.5)
        #expect(iphone["width"] as? Int == 102, "orientation 6 turns 205x102 into 102x205")
        #expect(iphone["height"] as? Int == 205)

        // piexif's camera samples are uniform 80x80 frames: nothing to cut out, so failed entries
        // (no-subject). Their EXIF is checked without the cut-out in ProcessingTests (CorpusExifTests).
        for name in ["r_canon.jpg", "r_casio.jpg", "r_olympus.jpg", "r_pana.jpg", "r_pen.jpg", "r_ricoh.jpg", "r_sigma.jpg", "r_sony.jpg"] {
            let event = try #require(events["exif/piexif/" + name], "\(name)")
            #expect((event["error"] as? [String: Any])?["code"] as? String == "no-subject", "\(name): \(event)")
        }

        // The eight orientation samples all show the same upright 40x80 picture.
        for orientation in 1...8 {
            let entry = try await detail(events["exif/goexif/samples/f\(orientation)-exif.jpg"], folder: folder)
            #expect(entry["width"] as? Int == 40, "f\(orientation)")
            #expect(entry["height"] as? Int == 80, "f\(orientation)")
            #expect((entry["exif"] as? [String: Any])?["orientation"] as? Int == orientation)
        }

        // Malformed EXIF loses the EXIF, not the photo; the empty "jpeg" is a named failure.
        for name in ["huge_tag_exif.jpg", "infinite_loop_exif.jpg", "max_uint32_exif.jpg"] {
            #expect(events["exif/goexif/corrupt/" + name] != nil, "\(name) has an outcome")
        }
        let empty = try #require(events["exif/piexif/notjpeg.jpg"])
        #expect(empty["event"] as? String == "failed")
    }

    @Test func brokenImagesFailByNameAndNothingCrashes() async throws {
        let folder = try TemporaryFolder()
        let (result, events) = try await importCorpus(["png", "jpeg"], folder: folder, realCutout: false)
        #expect([0, 1].contains(result.status), "no crash: \(result.stderr.suffix(2000))")
        #expect(events.count == Corpus.fileCount(in: "png") + Corpus.fileCount(in: "jpeg"), "one event per file")

        // Go's invalid PNGs fail, but for invalid-palette.png: libpng decodes its out-of-palette
        // index (255 of 255 entries) without a word, as black, so it imports.
        for (path, event) in events where path.hasPrefix("png/go/invalid-") && path != "png/go/invalid-palette.png" {
            #expect(event["event"] as? String == "failed", "\(path) is invalid")
            let code = (event["error"] as? [String: Any])?["code"] as? String
            #expect(["corrupt-image", "truncated"].contains(code), "\(path): \(String(describing: code))")
        }
        // Every pngsuite basic image (basn*) is valid and imports (Go's testdata holds copies: duplicates).
        for (path, event) in events where path.hasPrefix("png/pngsuite/basn") {
            #expect(["imported", "duplicate"].contains(event["event"] as? String), "\(path): \(event)")
        }
        // libpng's crashers: every one a named failure, but for empty_ancillary_chunks.png (a valid image).
        for (path, event) in events where path.hasPrefix("png/testpngs/crashers/") && !path.hasSuffix("/empty_ancillary_chunks.png") {
            let code = (event["error"] as? [String: Any])?["code"] as? String
            #expect(["corrupt-image", "truncated"].contains(code), "\(path): \(event)")
        }
        // Go's JPEG variants (baseline, progressive, subsamplings, CMYK, grey, truncated progressive) decode,
        // but for the 4:1:0 / 4:1:1-like subsamplings TurboJPEG's scaled decoder refuses, which are named.
        for (path, event) in events where path.hasPrefix("jpeg/go/") && path.hasSuffix(".jpeg") {
            let outcome = event["event"] as? String
            let error = event["error"] as? [String: Any]
            let named = error?["code"] as? String == "unsupported-format" && (error?["message"] as? String)?.contains("subsampling") == true
            // Decoded, but the cut-out found no subject in the picture: a named outcome of a valid file.
            let noSubject = error?["code"] as? String == "no-subject"
            #expect(["imported", "duplicate"].contains(outcome) || named || noSubject, "\(path): \(event)")
        }
        // Failures always carry a known code and a message.
        let codes: Set<String> = ["unsupported-format", "corrupt-image", "truncated", "too-large", "unreadable", "no-subject", "no-video", "no-frames"]
        for (path, event) in events where event["event"] as? String == "failed" {
            let error = try #require(event["error"] as? [String: Any], "\(path)")
            #expect(codes.contains(error["code"] as? String ?? ""), "\(path): \(error)")
            #expect((error["message"] as? String)?.isEmpty == false)
        }
    }

    @Test func pillowSuiteNeverCrashes() async throws {
        let folder = try TemporaryFolder()
        let (result, events) = try await importCorpus(["pillow"], folder: folder, realCutout: false)
        #expect([0, 1].contains(result.status), "no crash: \(result.stderr.suffix(2000))")
        #expect(events.count == Corpus.fileCount(in: "pillow"), "one event per file")
        // A 1x1 PNG whose text chunks inflate to gigabytes: libpng skips them within its chunk limits.
        #expect(events["pillow/png_decompression_dos.png"] != nil)
        // Pillow's truncated and broken PNG/JPEG files are named failures.
        for name in ["truncated_image.png", "truncated_jpeg.jpg", "truncated_end_chunk.png", "broken.png", "broken_data_stream.png"] {
            let event = try #require(events["pillow/" + name], "\(name)")
            let code = (event["error"] as? [String: Any])?["code"] as? String
            #expect(["corrupt-image", "truncated"].contains(code), "\(name): \(event)")
        }
        // Its decompression bombs in still formats are refused by format, before any decoding.
        for name in ["decompression_bomb.gif", "decompression_bomb.ico"] {
            if let event = events["pillow/" + name] {
                #expect((event["error"] as? [String: Any])?["code"] as? String == "unsupported-format", "\(name): \(event)")
            }
        }
        // A GIF of two frames whose frames claim extents far past its 100 x 100 screen is an animation:
        // its frames are the screen's size, within the pixel limit, so it is imported (or a named failure).
        if let event = events["pillow/decompression_bomb_extents.gif"] {
            #expect(event["event"] as? String == "imported" || event["event"] as? String == "failed", "\(event)")
        }
        // Every failure in the suite is named with a known code.
        let codes: Set<String> = ["unsupported-format", "corrupt-image", "truncated", "too-large", "unreadable", "no-subject", "no-video", "no-frames"]
        for (path, event) in events where event["event"] as? String == "failed" {
            #expect(codes.contains((event["error"] as? [String: Any])?["code"] as? String ?? ""), "\(path): \(event)")
        }
    }
}

/// Where the fetched corpus is.
enum Corpus {
    static let root: URL? = {
        guard let path = ProcessInfo.processInfo.environment["STICKER_CORPUS"], !path.isEmpty else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path + "/exif", isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return URL(fileURLWithPath: path)
    }()

    /// The time budget of one file (debug build, shared machine): $STICKER_CORPUS_FILE_SECONDS, else 30.
    static let perFileSeconds: Double = ProcessInfo.processInfo.environment["STICKER_CORPUS_FILE_SECONDS"].flatMap(Double.init) ?? 30

    /// Regular, non-hidden files below `subfolder` whose path has no hidden component (as import walks them).
    static func fileCount(in subfolder: String) -> Int {
        guard let root, let walker = FileManager.default.enumerator(at: root.appendingPathComponent(subfolder), includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey], options: [.skipsHiddenFiles]) else { return 0 }
        var count = 0
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            if values?.isRegularFile == true && values?.isSymbolicLink != true { count += 1 }
        }
        return count
    }
}
