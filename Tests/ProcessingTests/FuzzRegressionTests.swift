import Foundation
import Processing
import Testing

/// Inputs kept from fuzzing (`make fuzz`; `Fuzz/regressions/`, outside the test target so SwiftPM does not
/// treat them as resources): each goes through the fuzzed entry points again, which must return
/// (a value or a named error) rather than crash. Also runs the fuzzers' own dictionary of edge cases below.
@Suite(.timeLimit(.minutes(15))) struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/regressions")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }
            .sorted()
    }

    /// What the harnesses of `Fuzz/` do with one input.
    private func runEntryPoints(_ bytes: [UInt8]) {
        _ = try? JPEGCodec.readHeader(bytes)
        _ = try? JPEGCodec.decode(bytes, maxPixels: 4_000_000, minimumLongSide: 256)
        _ = try? PNGCodec.readHeader(bytes)
        _ = try? PNGCodec.decode(bytes, maxPixels: 4_000_000)
        _ = PNGCodec.exifChunk(bytes)
        _ = ExifReader.read(fromJPEG: bytes)
        _ = ExifReader.read(tiffBlock: bytes)
        _ = try? PhotoDecoder.decode(bytes, options: DecodeOptions(maxPixels: 4_000_000, workingSize: 256))
        _ = try? HEIFCodec.decode(bytes, maxPixels: 4_000_000, workingSize: 256)
        _ = try? WebPCodec.decodeScaled(bytes, maxPixels: 4_000_000, workingSize: 256)
        _ = WebPChunks.exif(bytes)
        _ = PNGCodec.iccProfile(bytes)
        _ = ColorConverter.toSRGB(RGBAImage(width: 4, height: 4, red: 1, green: 2, blue: 3), from: .icc(bytes))
        // The animation harnesses (gif, apng, clip): the format by its bytes, then a small window.
        _ = MediaFormat.detect(bytes)
        _ = try? AnimationDecoder.decode(bytes, window: AnimationWindow(maxFrames: 8, maxPixels: 4_000_000, workingSize: 128))
    }

    @Test func keptInputsNoLongerCrash() throws {
        for name in Self.inputs {
            let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
            runEntryPoints(bytes)
        }
    }

    /// Small hostile inputs at the edges of the parsers: empty, magic numbers alone, segment and chunk
    /// lengths that point past the end, an EXIF IFD that points at itself.
    @Test(arguments: [
        [],
        [0xFF, 0xD8],
        [0xFF, 0xD8, 0xFF],
        [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00],
        [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01],
        [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x10, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00, 0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0xFF, 0xFF],
        [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x12, 0x01, 0x04, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x08, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00],
        [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x87, 0x69, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08],
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x7F, 0xFF, 0xFF, 0xFF, 0x49, 0x48, 0x44, 0x52],
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
         0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x08, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    ] as [[UInt8]])
    func edgeInputsAreHandled(bytes: [UInt8]) {
        runEntryPoints(bytes)
        #expect(throws: ProcessingError.self) {
            _ = try PhotoDecoder.decode(bytes, options: DecodeOptions(maxPixels: 4_000_000, workingSize: 256))
        }
    }
}
