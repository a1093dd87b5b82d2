import Foundation
import Testing
@testable import Processing

/// The table path for matrix-shaper profiles (`ColorConverter.MatrixShaper`) against lcms2's own
/// exact evaluation (unoptimised, 16 bits, rounded to 8), over a dense sample of colours.
@Suite(.timeLimit(.minutes(15))) struct ColorConversionAccuracyTests {
    /// Every third level on each axis (86³ colours, both ends included) with alpha varying.
    static let sample: RGBAImage = {
        let levels = Array(stride(from: 0, through: 255, by: 3))
        var pixels: [UInt8] = []
        pixels.reserveCapacity(levels.count * levels.count * levels.count * 4)
        for r in levels { for g in levels { for b in levels { pixels += [UInt8(r), UInt8(g), UInt8(b), UInt8((r + g + b) & 255)] } } }
        return RGBAImage(width: levels.count * levels.count, height: levels.count, pixels: pixels)
    }()

    /// Mean and largest difference, in 8-bit levels over R, G and B; and whether alpha is untouched.
    static func compare(_ profile: ColorProfile) throws -> (mean: Double, max: Int) {
        let exact = try #require(ColorConverter.exactToSRGB(sample, from: profile))
        let converted = ColorConverter.toSRGB(sample, from: profile)
        #expect(converted.warning == nil)
        var total = 0, largest = 0
        for index in sample.pixels.indices {
            if index % 4 == 3 {
                #expect(converted.image.pixels[index] == sample.pixels[index], "alpha is kept")
                continue
            }
            let difference = abs(Int(converted.image.pixels[index]) - Int(exact.pixels[index]))
            total += difference
            largest = max(largest, difference)
        }
        return (Double(total) / Double(sample.pixels.count / 4 * 3), largest)
    }

    @Test(arguments: ColorConverter.RGBSpace.allCases)
    func matrixShaperSpacesMatchLcms2sExactConversion(space: ColorConverter.RGBSpace) throws {
        let profile = ColorProfile.icc(try #require(space.iccProfile))
        guard case .matrixShaper = ColorConverter.transform(for: profile) else {
            Issue.record("\(space) should take the table path")
            return
        }
        let (mean, largest) = try Self.compare(profile)
        #expect(largest <= 1, "\(space): largest difference \(largest) levels")
        #expect(mean <= 0.02, "\(space): mean difference \(mean) levels")
    }

    @Test func nclxDisplayP3TakesTheTablePath() throws {
        let profile = ColorProfile.nclx(primaries: 12, transfer: 13)
        guard case .matrixShaper = ColorConverter.transform(for: profile) else {
            Issue.record("nclx Display P3 should take the table path")
            return
        }
        let (mean, largest) = try Self.compare(profile)
        #expect(largest <= 1 && mean <= 0.02, "largest \(largest), mean \(mean)")
    }

    /// colord's Adobe RGB (1998) profile, as photo software embeds it (Debian's colord-data).
    static let colordAdobeRGB = "/usr/share/color/icc/colord/AdobeRGB1998.icc"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: colordAdobeRGB), "colord-data is not installed"))
    func anEmbeddedAdobeRGBProfileMatchesToo() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.colordAdobeRGB))
        let profile = ColorProfile.icc(Array(bytes))
        guard case .matrixShaper = ColorConverter.transform(for: profile) else {
            Issue.record("colord's Adobe RGB should take the table path")
            return
        }
        let (mean, largest) = try Self.compare(profile)
        #expect(largest <= 1 && mean <= 0.02, "largest \(largest), mean \(mean)")
    }

    @Test func aLookupTableProfileGoesThroughLcms2() throws {
        let bytes = try #require(ColorConverter.lookupTableProfile(of: .displayP3))
        let profile = ColorProfile.icc(bytes)
        guard case .convert = ColorConverter.transform(for: profile) else {
            Issue.record("a lookup-table profile is not curves-then-matrix: lcms2 converts it")
            return
        }
        // lcms2's 8-bit transform resamples such a profile onto its own grid: measured mean 0.12,
        // largest 12 levels (where the P3 gamut is clipped to sRGB's, between grid points).
        let (mean, largest) = try Self.compare(profile)
        #expect(largest <= 16 && mean <= 0.25, "largest \(largest), mean \(mean)")
    }
}
