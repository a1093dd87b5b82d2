import Crypto
import Foundation
import Processing
import Testing

@testable import Catalog

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` with a new empty folder, removed afterwards even when `body` throws
/// (permissions are restored first, so folders a test made read-only go too).
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appending(path: "catalog-tests-\(UUID().uuidString)", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer {
        if let contents = FileManager.default.enumerator(atPath: directory.path) {
            for case let relative as String in contents {
                chmod(directory.appending(path: relative).path, 0o755)
            }
        }
        chmod(directory.path, 0o755)
        try? FileManager.default.removeItem(at: directory)
    }
    return try await body(directory)
}

/// A valid-looking SHA-256 (64 lower-case hex digits) made from a number.
func sha(_ number: Int) -> String {
    String(format: "%064x", number)
}

/// The SHA-256 of a file's bytes, to prove a file was not changed.
func fileDigest(_ url: URL) throws -> String {
    SHA256.hash(data: try Data(contentsOf: url)).map { String(format: "%02x", $0) }.joined()
}

/// A processed photo with every field set: EXIF with an offset, a two-colour palette, an 8-byte "PNG".
func sampleProcessedPhoto(exif: ExifMetadata? = sampleExif) -> ProcessedPhoto {
    ProcessedPhoto(
        format: .jpeg, width: 4000, height: 3000, exif: exif,
        sticker: StickerImage(png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], width: 512, height: 384),
        palette: Palette(colors: [
            PaletteColor(hex: "#ff8800", l: 0.75, a: 0.125, b: 0.15, share: 0.5),
            PaletteColor(hex: "#0044cc", l: 0.4, a: -0.05, b: -0.2, share: 0.25),
        ]),
        // fp32 named: the default, `auto`, resolves per CPU, and the snapshots must not.
        pipelineVersion: 4, settings: StickerSettings(size: 512, paletteColors: 2, precision: .fp32)
    )
}

/// EXIF with every field, and a date taken two hours east of UTC.
let sampleExif = ExifMetadata(
    make: "Canon", model: "EOS R5", lensModel: "RF24-105mm F4 L IS USM", takenAt: "2024-05-01T12:34:56+02:00",
    exposureTime: 0.004, fNumber: 4, iso: 200, focalLength: 50, orientation: 6,
    gpsLatitude: 48.8584, gpsLongitude: -2.2945, gpsAltitude: 35.5,
    tags: ["EXIF.ISOSpeedRatings": "200", "0.Make": "Canon", "0.Model": "EOS R5"]
)

/// A source file at `path` with fixed size and modification time.
func source(_ path: String, size: Int64 = 1234, modificationTime: Double = 1_714_559_696) -> SourceFile {
    SourceFile(path: path, size: size, modificationTime: modificationTime)
}

/// `value` as JSON with sorted keys, as the CLI prints it.
func sortedJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// The `CatalogError` `body` throws, or nil (any other error is recorded as an issue).
func catalogError<T>(_ body: () async throws -> T) async -> CatalogError? {
    do {
        _ = try await body()
        return nil
    } catch let error as CatalogError {
        return error
    } catch {
        Issue.record("expected a CatalogError, got \(error)")
        return nil
    }
}

/// Whether this process is subject to file permissions: false for root, which writes into a 0555
/// folder anyway, so permission tests would prove nothing (they are then skipped).
let filePermissionsAreEnforced: Bool = {
    let folder = FileManager.default.temporaryDirectory.appending(path: "catalog-perm-probe-\(UUID().uuidString)")
    defer {
        chmod(folder.path, 0o755)
        try? FileManager.default.removeItem(at: folder)
    }
    guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else {
        return false
    }
    chmod(folder.path, 0o555)
    return !FileManager.default.createFile(atPath: folder.appending(path: "probe").path, contents: Data())
}()

extension CatalogError {
    /// The case's name without its values (`serverUnreachable`), for a test that expects a kind of
    /// failure whose details (a port, a reason from the server) vary. The exit code of each case is
    /// the CLI's to give, and is checked in CLITests (ExitStatusTests).
    var caseName: String { String(String(describing: self).prefix { $0 != "(" }) }
}
