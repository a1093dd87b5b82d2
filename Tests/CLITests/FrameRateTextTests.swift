import Catalog
import Foundation
import Testing

@testable import catalog_cli

/// Frame rates in the fit report (`export --dry-run`) and `show` are written one way for every sticker.
@Suite struct FrameRateTextTests {
    @Test(arguments: [
        (15.0, "15"), (14.96, "15"), (15.04, "15"), (29.996, "30"), (12.5, "12.5"), (14.83, "14.8"), (10.0, "10"), (7.5, "7.5"),
    ])
    func aRateIsWholeOrHasOneDecimal(rate: Double, text: String) {
        #expect(Format.frameRate(rate) == text)
    }

    @Test func theFitReportSaysTheRateTheSameWayForEverySticker() throws {
        func motion(_ json: String) throws -> ExportReport.Motion {
            try JSONDecoder().decode(ExportReport.Motion.self, from: Data(json.utf8))
        }
        let exact = try motion(#"{"frames":45,"frameRate":15.0,"durationMs":3000,"steps":[]}"#)
        let near = try motion(#"{"frames":44,"frameRate":14.96,"durationMs":2941,"steps":["30 → 15 fps"]}"#)
        #expect(CatalogCommand.ExportCommand.motion(exact) == "45 frames, 15 fps, 3.0 s")
        #expect(CatalogCommand.ExportCommand.motion(near) == "44 frames, 15 fps, 2.9 s (30 → 15 fps)")
    }
}
