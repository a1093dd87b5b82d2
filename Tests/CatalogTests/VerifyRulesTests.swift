import Foundation
import Testing

@testable import Catalog

/// The verify checks both back ends share, on rows made by hand (no database).
@Suite struct VerifyRulesTests {
    static let head: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 1, 0, 0, 0, 0, 200]

    static func row(width: Int = 256, height: Int = 200, bytes: Int64 = 99, pngBytes: Int64 = 99, head: [UInt8] = head) -> VerifyRules.StickerRow {
        .init(id: 7, hasSticker: true, hasPNG: true, width: width, height: height, bytes: bytes, pngBytes: pngBytes, head: head)
    }

    @Test func aConsistentStickerHasNoProblem() {
        #expect(PNGHeader.size(Self.head)! == (256, 200))
        #expect(VerifyRules.problems(Self.row()).isEmpty)
    }

    @Test func eachStickerFaultIsNamed() {
        var missing = Self.row()
        missing.hasSticker = false
        #expect(VerifyRules.problems(missing).map(\.message) == ["entry 7 is ok but has no sticker"])
        missing = Self.row()
        missing.hasPNG = false
        #expect(VerifyRules.problems(missing).map(\.message) == ["entry 7 has no sticker PNG"])
        #expect(VerifyRules.problems(Self.row(bytes: 98)).map(\.check) == ["sticker-size"])
        #expect(VerifyRules.problems(Self.row(width: 255)).map(\.message) == ["entry 7: the sticker is recorded as 255x200 but its PNG is 256x200"])
        let notPNG = VerifyRules.problems(Self.row(pngBytes: 5, head: Array(repeating: 0, count: 24)))
        #expect(notPNG.map(\.message) == [
            "entry 7: the sticker is recorded as 99 bytes but its PNG has 5", "entry 7: the sticker is not a PNG (no signature and IHDR)",
        ])
    }

    @Test func paletteRanksAndShares() {
        #expect(VerifyRules.problems(VerifyRules.PaletteRow(id: 3, count: 4, lowRank: 0, highRank: 3, shareSum: 1)).isEmpty)
        let bad = VerifyRules.problems(VerifyRules.PaletteRow(id: 3, count: 4, lowRank: 1, highRank: 4, shareSum: 1.5))
        #expect(bad.map(\.message) == ["entry 3: palette ranks are not 0...3 (1...4)", "entry 3: palette shares sum to 1.5, more than 1"])
        #expect(VerifyRules.unorderedShares(id: 3).check == "palette")
    }
}
