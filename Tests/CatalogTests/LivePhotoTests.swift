import Foundation
import TestProcessSupport
import Processing
import Testing

@testable import Catalog

/// Live Photos on every back end: a JPEG and a MOV of the same base name in one folder (names differing in
/// case) become a still entry and an animated entry linked both ways; a reprocess keeps the link, a copy
/// carries it, and a lone file or a third name is not linked.
@Suite(.timeLimit(.minutes(15))) struct LivePhotoTests {
    /// Two seconds of a moving test pattern as QuickTime, made with the ffmpeg CLI.
    static func writeMOV(to url: URL) async throws {
        let process = WatchedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10:duration=2", "-c:v", "libx264",
            "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags",
            "-metadata", "com.apple.quicktime.content.identifier=5A1B2C3D-0000-4000-8000-000000000001", "-f", "mov", url.path,
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = await errors.fileHandleForReading.readUntilClosed()
        await process.exited()
        try #require(process.terminationStatus == 0, "ffmpeg failed: \(String(decoding: output, as: UTF8.self))")
    }

    @Test(arguments: StoreKind.allCases)
    func aStillAndItsClipAreLinked(kind: StoreKind) async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appending(path: "phone")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(try JPEGCodec.encode(SampleSceneFrames.frame(0))).write(to: folder.appending(path: "IMG_0001.JPG"))
            try await Self.writeMOV(to: folder.appending(path: "img_0001.mov"))
            try Data(try JPEGCodec.encode(SampleSceneFrames.frame(5))).write(to: folder.appending(path: "IMG_0002.jpeg"))
            let store = try await openStore(kind, in: directory)
            let importer = Importer(repository: store, options: ImportOptions(jobs: 2, predictor: CentredEllipsePredictor()))
            let summary = try await importer.run([folder.path]) { _ in }
            #expect(summary.imported == 3, "\(summary)")
            let entries = try await store.entries(.all)
            let still = try #require(entries.first { $0.path.hasSuffix("IMG_0001.JPG") }?.id)
            let clip = try #require(entries.first { $0.path.hasSuffix("img_0001.mov") }?.id)
            let lone = try #require(entries.first { $0.path.hasSuffix("IMG_0002.jpeg") }?.id)
            let link = EntryDetail.LivePhoto(stillId: still, clipId: clip)

            #expect(try await store.entry(id: still)?.livePhoto == link)
            #expect(try await store.entry(id: clip)?.livePhoto == link)
            #expect(try await store.entry(id: lone)?.livePhoto == nil)
            // The still stays a still, the clip is animated, and the MOV's pairing identifier is kept.
            #expect(try await store.entry(id: still)?.sticker?.animation == nil)
            let clipDetail = try #require(try await store.entry(id: clip))
            #expect(clipDetail.sticker?.animation != nil)
            #expect(clipDetail.allTags["QuickTime.com.apple.quicktime.content.identifier"] == "5A1B2C3D-0000-4000-8000-000000000001")

            // Importing again, or the clip alone later, links the same pair once.
            _ = try await importer.run([folder.appending(path: "img_0001.mov").path]) { _ in }
            #expect(try await store.entry(id: still)?.livePhoto == link)

            // A reprocess of both keeps the link; a copy carries it.
            let reprocessor = Reprocessor(
                repository: store, options: ReprocessOptions(jobs: 1, all: true, settings: .default, predictor: CentredEllipsePredictor()))
            _ = try await reprocessor.run(try await reprocessor.candidates()) { _ in }
            #expect(try await store.entry(id: clip)?.livePhoto == link)
            let copy = try await openStore(.sqlite, in: directory, name: "copy")
            _ = try await CatalogCopier(source: store, target: copy).run { _ in }
            #expect(try await copy.entry(id: still)?.livePhoto == link)
            #expect(try await copy.entry(id: clip)?.livePhoto == link)
        }
    }

    @Test func partnersAreFoundByNameWhateverTheCase() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["IMG_1.HEIC", "img_1.MoV", "IMG_2.jpg", "IMG_2.heic", "IMG_2.mov", "IMG_3.png", "IMG_3.mov"] {
            _ = FileManager.default.createFile(atPath: folder.appending(path: name).path, contents: Data())
        }
        #expect(LivePhotoPairs.partner(of: folder.appending(path: "IMG_1.HEIC").path) == folder.appending(path: "img_1.MoV").path)
        #expect(LivePhotoPairs.partner(of: folder.appending(path: "img_1.MoV").path) == folder.appending(path: "IMG_1.HEIC").path)
        // Two stills for one clip: which is the Live Photo's is not known.
        #expect(LivePhotoPairs.partner(of: folder.appending(path: "IMG_2.mov").path) == nil)
        #expect(LivePhotoPairs.partner(of: folder.appending(path: "IMG_2.jpg").path) == nil)
        // A PNG is no Live Photo still.
        #expect(LivePhotoPairs.partner(of: folder.appending(path: "IMG_3.mov").path) == nil)
    }
}
