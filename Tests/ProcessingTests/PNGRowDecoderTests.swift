import CPNGRows
import CResampleRows
import Testing
@testable import Processing

/// The fast PNG path against libpng: the same pixels for every colour type and row filter it
/// takes, the same reduced image as reducing libpng's, and libpng's verdict for everything else.
@Suite(.timeLimit(.minutes(15)))
struct PNGRowDecoderTests {
    static let noLimit = 1 << 40

    @Test(arguments: [1, 2, 3, 4])
    func everyFilterGivesLibpngsPixels(channels: Int) throws {
        for (width, height) in [(1, 1), (2, 3), (17, 9), (64, 33)] {
            var generator = SplitMix64(seed: UInt64(width * 131 + height * 7 + channels))
            let png = TestPNG.make(width: width, height: height, channels: channels, generator: &generator)
            let layout = try #require(PNGRowDecoder.layout(png))
            #expect(layout.channels == channels && layout.width == width && layout.height == height)
            let fast = try #require(try PNGRowDecoder.decodeReduced(png, maxPixels: Self.noLimit, workingSize: 4096))
            #expect(fast.image == (try PNGCodec.decode(png, maxPixels: Self.noLimit)), "\(channels) channels, \(width)x\(height)")
            #expect(fast.width == width && fast.height == height)
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func reducesAsItDecodesToWhatReducingLibpngsGives(channels: Int) throws {
        var generator = SplitMix64(seed: UInt64(channels))
        let png = TestPNG.make(width: 203, height: 97, channels: channels, generator: &generator)
        let fast = try #require(try PNGRowDecoder.decodeReduced(png, maxPixels: Self.noLimit, workingSize: 40))
        let whole = try PNGCodec.decode(png, maxPixels: Self.noLimit)
        #expect(fast.image == ImageResizer.reducedToWorkingSize(whole, workingSize: 40))
        #expect(fast.image.width == 41 && fast.image.height == 20)  // 203 / 5 and 97 / 5, rounded up
        #expect(fast.width == 203 && fast.height == 97)
    }

    @Test func ourOwnEncodingsDecodeAlike() throws {
        let image = Fixtures.noise(width: 150, height: 61)
        for compression in [PNGCompression.fast, .small] {
            let png = try PNGCodec.encode(image, compression: compression)
            let fast = try #require(try PNGRowDecoder.decodeReduced(png, maxPixels: Self.noLimit, workingSize: 4096))
            #expect(fast.image == image)
        }
    }

    @Test func anSRGBGammaChunkKeepsTheFastPathAndItsPixels() throws {
        var generator = SplitMix64(seed: 5)
        let png = TestPNG.make(width: 9, height: 5, channels: 3, generator: &generator,
                               chunks: [("gAMA", TestPNG.uint32(45_455)), ("sRGB", [0]), ("tEXt", Array("Title\0x".utf8))])
        let fast = try #require(try PNGRowDecoder.decodeReduced(png, maxPixels: Self.noLimit, workingSize: 4096))
        #expect(fast.image == (try PNGCodec.decode(png, maxPixels: Self.noLimit)))
    }

    /// Kinds and chunks that change what libpng makes of the pixels are left to it.
    @Test func otherKindsAreLeftToLibpng() {
        var generator = SplitMix64(seed: 9)
        let leftToLibpng: [(String, [UInt8])] = [
            ("a gamma other than sRGB's", TestPNG.make(width: 4, height: 4, channels: 3, generator: &generator,
                                                       chunks: [("gAMA", TestPNG.uint32(100_000))])),
            ("a colour key", TestPNG.make(width: 4, height: 4, channels: 3, generator: &generator,
                                          chunks: [("tRNS", [0, 1, 0, 2, 0, 3])])),
            ("significant bits", TestPNG.make(width: 4, height: 4, channels: 4, generator: &generator,
                                              chunks: [("sBIT", [5, 6, 5, 8])])),
            ("16-bit samples", TestPNG.make(width: 4, height: 4, channels: 3, generator: &generator, bitDepth: 16)),
            ("an unknown critical chunk", TestPNG.make(width: 4, height: 4, channels: 3, generator: &generator,
                                                       chunks: [("ABCD", [1, 2])])),
        ]
        for (what, png) in leftToLibpng {
            #expect(PNGRowDecoder.layout(png) == nil, "\(what)")
        }
    }

    @Test func damagedFilesAreLeftToLibpngWhichRefusesThem() throws {
        var generator = SplitMix64(seed: 11)
        let good = TestPNG.make(width: 12, height: 6, channels: 4, generator: &generator)
        var badCRC = good
        badCRC[TestPNG.firstIDATOffset(good) + 10] ^= 0x40  // inside the IDAT data: its CRC fails
        let noEnd = Array(good.dropLast(12))
        let badFilter = TestPNG.make(width: 12, height: 6, channels: 4, generator: &generator, filterByte: 5)
        let shortData = TestPNG.make(width: 12, height: 6, channels: 4, generator: &generator, dropRows: 1)
        for (what, png) in [("a failed CRC", badCRC), ("no IEND", noEnd), ("filter type 5", badFilter), ("missing rows", shortData)] {
            #expect(try PNGRowDecoder.decodeReduced(png, maxPixels: Self.noLimit, workingSize: 4096) == nil, "\(what)")
            #expect(throws: ProcessingError.self, "\(what)") {
                try PhotoDecoder.decode(png, options: DecodeOptions(maxPixels: Self.noLimit, workingSize: 4096))
            }
        }
    }

    @Test func tooManyPixelsIsRefusedBeforeAnything() {
        var generator = SplitMix64(seed: 3)
        let png = TestPNG.make(width: 30, height: 20, channels: 3, generator: &generator)
        #expect(throws: ProcessingError.tooLarge(width: 30, height: 20, limit: 599)) {
            try PNGRowDecoder.decodeReduced(png, maxPixels: 599, workingSize: 4096)
        }
    }

    @Test func rowsFollowTheFormatsFiltersByteForByte() {
        // The vector paths (3- and 4-byte pixels) and the portable one against the definitions.
        var generator = SplitMix64(seed: 21)
        for bytesPerPixel in 1...4 {
            for filter in 0...4 {
                for hasPrior in [false, true] {
                    let length = bytesPerPixel * 37
                    let original = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    let prior = hasPrior ? (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) } : nil
                    var row = TestPNG.filtered(original, prior: prior, bytesPerPixel: bytesPerPixel, filter: filter)
                    let status = row.withUnsafeMutableBufferPointer { row in
                        (prior ?? []).withUnsafeBufferPointer { above in
                            png_rows_unfilter(row.baseAddress, hasPrior ? above.baseAddress : nil, length, UInt32(bytesPerPixel), UInt32(filter))
                        }
                    }
                    #expect(status == 0)
                    #expect(row == original, "\(bytesPerPixel) bytes a pixel, filter \(filter), prior \(hasPrior)")
                }
            }
        }
    }

    @Test func rowPairsFollowTheFiltersForEveryPairing() {
        var generator = SplitMix64(seed: 22)
        for bytesPerPixel in 1...4 {
            for (firstFilter, secondFilter) in (0...4).flatMap({ first in (0...4).map { (first, $0) } }) {
                for pixels in [1, 2, 29] {
                    let length = bytesPerPixel * pixels
                    let random = { (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) } }
                    let (prior, first, second) = (random(), random(), random())
                    var firstRow = TestPNG.filtered(first, prior: prior, bytesPerPixel: bytesPerPixel, filter: firstFilter)
                    var secondRow = TestPNG.filtered(second, prior: first, bytesPerPixel: bytesPerPixel, filter: secondFilter)
                    let status = firstRow.withUnsafeMutableBufferPointer { firstRow in
                        secondRow.withUnsafeMutableBufferPointer { secondRow in
                            png_rows_unfilter_pair(firstRow.baseAddress, secondRow.baseAddress, prior, length, UInt32(bytesPerPixel),
                                                   UInt32(firstFilter), UInt32(secondFilter))
                        }
                    }
                    #expect(status == 0)
                    #expect(firstRow == first && secondRow == second,
                            "\(bytesPerPixel) bytes a pixel, filters \(firstFilter) then \(secondFilter), \(pixels) pixels")
                }
            }
        }
        var row: [UInt8] = [1, 2, 3], other: [UInt8] = [4, 5, 6]
        #expect(png_rows_unfilter_pair(&row, &other, [0, 0, 0], 3, 3, 1, 5) == -1)
    }

    /// Whole images of rows with random filters, unfiltered in ranges as the decoder asks for
    /// them, on every path: rows and pairs, the wavefront wherever it can run (16 rows, each a
    /// pixel or more behind the one above, on CPUs with AVX-512), and the choice between them.
    @Test(arguments: [1, 2, 3, 4])
    func imageRowsFollowTheFiltersOnEveryPath(bytesPerPixel: Int) {
        var generator = SplitMix64(seed: UInt64(60 + bytesPerPixel))
        // The last two widths put rows near multiples of 4 KiB apart, where the rows run further
        // behind one another.
        for (pixels, height) in [(1, 1), (2, 17), (3, 16), (17, 40), (64, 33), (100, 35), (1283, 18), (2731, 17), (5120, 17)] {
            let length = pixels * bytesPerPixel, stride = length + 1
            var rows: [[UInt8]] = []
            var data: [UInt8] = []
            for y in 0..<height {
                let row = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                // Runs of one filter, as encoders make them, and single rows of another.
                let filter = y % 7 < 3 ? 4 : Int.random(in: 0...4, using: &generator)
                data.append(UInt8(filter))
                data += TestPNG.filtered(row, prior: rows.last, bytesPerPixel: bytesPerPixel, filter: filter)
                rows.append(row)
            }
            let expected = rows.flatMap { $0 }
            for path in [PNG_ROWS_PAIRS, PNG_ROWS_WAVEFRONT, PNG_ROWS_BEST] {
                var image = data + [0xA5]  // the byte after the rows, which must come back as it was
                let ranges = [0..<min(height, 5), min(height, 5)..<min(height, 21), min(height, 21)..<height]
                let statuses = image.withUnsafeMutableBufferPointer { image in
                    ranges.map { range in
                        png_rows_unfilter_image_rows(image.baseAddress, length, UInt32(bytesPerPixel), range.lowerBound, range.count, Int32(path))
                    }
                }
                let unfiltered = (0..<height).flatMap { y in image[(y * stride + 1)..<((y + 1) * stride)] }
                #expect(statuses.allSatisfy { $0 == 0 })
                #expect(unfiltered == expected, "\(bytesPerPixel) bytes a pixel, \(pixels)x\(height), path \(path)")
                #expect(image.last == 0xA5 && (0..<height).allSatisfy { image[$0 * stride] == data[$0 * stride] })
            }
        }
        var bad: [UInt8] = [1, 7, 7, 7, 5, 7, 7, 7, 0]
        #expect(png_rows_unfilter_image_rows(&bad, 3, 3, 0, 2, Int32(PNG_ROWS_BEST)) == -1)
        #expect(bad == [1, 7, 7, 7, 5, 7, 7, 7, 0])
    }

    @Test(arguments: [1, 2, 3, 4])
    func resampledRowsMatchTheSwiftLoopToTheBit(channels: Int) {
        // The resizer's former horizontal pass, in Swift: widen to RGBA, Float, premultiply, then
        // each output pixel the left-to-right sum of its weighted taps. Widths around the vector
        // steps (4 pixels, a 16-byte load) and a long row.
        var generator = SplitMix64(seed: UInt64(40 + channels))
        for sourceWidth in [1, 2, 4, 5, 6, 7, 8, 9, 301] {
            let source = (0..<sourceWidth * channels).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Taps as the area and bilinear filters make them (1 to 6 a pixel, overlapping), with
            // weights that are not powers of two, so every rounding shows.
            var starts: [Int] = [], counts: [Int] = [], offsets: [Int] = [], weights: [Float] = []
            for _ in 0..<97 {
                let count = Int.random(in: 1...min(6, sourceWidth), using: &generator)
                starts.append(Int.random(in: 0...(sourceWidth - count), using: &generator))
                counts.append(count)
                offsets.append(weights.count)
                weights += (0..<count).map { _ in Float.random(in: 0.01...1, using: &generator) }
            }
            var rgba = [UInt8](repeating: 0, count: sourceWidth * 4)
            png_rows_to_rgba(source, &rgba, sourceWidth, UInt32(channels))
            let premultiplied = (0..<sourceWidth).map { x in
                let pixel = SIMD4<Float>((0..<4).map { Float(rgba[4 * x + $0]) })
                return pixel * SIMD4(pixel[3], pixel[3], pixel[3], 1)
            }
            let expected = (0..<starts.count).map { x in
                var sum = SIMD4<Float>()
                for tap in 0..<counts[x] { sum += weights[offsets[x] + tap] * premultiplied[starts[x] + tap] }
                return sum
            }
            var made = [Float](repeating: -1, count: starts.count * 4)
            var scratch = [Float](repeating: 0, count: sourceWidth * 4)
            resample_row_premultiplied(
                source, UInt32(channels), sourceWidth, &scratch, starts.count, starts, counts, offsets, weights, &made)
            let expectedBits = expected.flatMap { sum in (0..<4).map { sum[$0].bitPattern } }
            #expect(made.map(\.bitPattern) == expectedBits, "\(channels) channels, \(sourceWidth) pixels")
        }
    }
}
