import Foundation
import Testing
@testable import Processing

/// EXIF of real camera files from the third-party corpus ($STICKER_CORPUS), read directly: piexif's
/// camera samples are uniform frames, which `catalog import` records as no-subject failures.
@Suite(.enabled(if: piexifFolder != nil, "set STICKER_CORPUS to a folder made by ../shared/corpus/fetch.sh"), .timeLimit(.minutes(15)))
struct CorpusExifTests {
    @Test func cameraMakesAndModels() throws {
        let folder = try #require(piexifFolder)
        // Values read once with `exiftool -n`.
        let makes = [
            "r_canon.jpg": ("Canon", "Canon PowerShot G1 X Mark II"), "r_casio.jpg": ("CASIO COMPUTER CO.,LTD.", "EX-100"),
            "r_olympus.jpg": ("OLYMPUS IMAGING CORP.", "STYLUS1"), "r_pana.jpg": ("Panasonic", "DMC-L10"),
            "r_pen.jpg": ("OLYMPUS IMAGING CORP.", "E-P3"), "r_ricoh.jpg": ("PENTAX RICOH IMAGING", "GR"),
            "r_sigma.jpg": ("SIGMA", "SIGMA DP3 Merrill"), "r_sony.jpg": ("SONY", "DSC-RX1R"),
        ]
        for (name, (make, model)) in makes {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let exif = try #require(ExifReader.read(fromJPEG: bytes), "\(name)")
            #expect(exif.make == make, "\(name)")
            #expect(exif.model == model, "\(name)")
            // The photo itself still decodes (it is the cut-out that finds nothing in it).
            #expect(throws: Never.self) { try PhotoDecoder.decode(bytes, options: DecodeOptions()) }
        }
    }
}

/// The corpus's piexif samples ($STICKER_CORPUS/exif/piexif), when the corpus is there.
private let piexifFolder: URL? = {
    guard let root = ProcessInfo.processInfo.environment["STICKER_CORPUS"], !root.isEmpty else { return nil }
    let folder = URL(fileURLWithPath: root).appendingPathComponent("exif/piexif")
    return FileManager.default.fileExists(atPath: folder.appendingPathComponent("r_pana.jpg").path) ? folder : nil
}()
