import CSegmentationKernels
import Testing
@testable import Processing

/// Box means: windows cut at the frame, several planes at once giving each plane's own result.
@Suite(.timeLimit(.minutes(15))) struct BoxFilterTests {
    static func plane(_ count: Int, random: inout MaskCleanupTests.Random) -> [Float] {
        (0..<count).map { _ in Float(random.next(1000)) / 999 }
    }

    @Test(arguments: [(1, 1, 0), (7, 5, 1), (13, 9, 3), (6, 4, 10), (40, 3, 2)])
    func meanIsTheAverageOverTheWindowInsideTheFrame(width: Int, height: Int, radius: Int) {
        var random = MaskCleanupTests.Random(state: UInt64(width * 100 + height))
        let values = Self.plane(width * height, random: &random)
        let means = BoxFilter.mean(values, width: width, height: height, radius: radius)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0, count = 0.0
                for v in max(0, y - radius)...min(height - 1, y + radius) {
                    for u in max(0, x - radius)...min(width - 1, x + radius) {
                        sum += Double(values[v * width + u])
                        count += 1
                    }
                }
                #expect(abs(Double(means[y * width + x]) - sum / count) < 1e-5, "(\(x), \(y))")
            }
        }
    }

    /// `planes` filtered together in one `BoxFilter.means` call, each plane's means apart.
    static func meansTogether(_ planes: [[Float]], width: Int, height: Int, radius: Int) -> [[Float]] {
        var together = [[Float]](repeating: [Float](repeating: 0, count: width * height), count: planes.count)
        BoxFilter.means(planes: planes.count, width: width, height: height, radius: radius) { y, rows in
            for plane in planes.indices {
                for x in 0..<width { rows[plane * width + x] = planes[plane][y * width + x] }
            }
        } emit: { y, means in
            for plane in planes.indices {
                for x in 0..<width { together[plane][y * width + x] = means[plane * width + x] }
            }
        }
        return together
    }

    @Test func planesFilteredTogetherMatchEachAlone() {
        var random = MaskCleanupTests.Random(state: 11)
        let width = 37, height = 23, radius = 4
        let planes = (0..<8).map { _ in Self.plane(width * height, random: &random) }
        for count in 1...8 {
            let together = Self.meansTogether(Array(planes.prefix(count)), width: width, height: height, radius: radius)
            for plane in 0..<count {
                #expect(together[plane] == BoxFilter.mean(planes[plane], width: width, height: height, radius: radius), "\(count) planes")
            }
        }
    }

    @Test func onlyWantedRowsComeOutAndTheyAreUnchanged() {
        var random = MaskCleanupTests.Random(state: 5)
        let width = 19, height = 17, radius = 3
        let values = Self.plane(width * height, random: &random)
        let all = BoxFilter.mean(values, width: width, height: height, radius: radius)
        for last in [height - 1, height / 2] {
            let wanted = (0..<height).map { y in y <= last && (y % 3 == 1 || y == last) ? (y % 5)..<(width - y % 4) : 0..<0 }
            var emitted: [Int] = []
            BoxFilter.means(planes: 1, width: width, height: height, radius: radius, wanted: wanted) { y, row in
                #expect(y <= last + radius, "row \(y) filled")
                for x in 0..<width { row[x] = values[y * width + x] }
            } emit: { y, means in
                emitted.append(y)
                let columns = wanted[y]
                #expect(columns.map { means[$0] } == Array(all[(y * width + columns.lowerBound)..<(y * width + columns.upperBound)]), "row \(y)")
            }
            #expect(emitted == (0..<height).filter { !wanted[$0].isEmpty })
        }
    }

    /// The means written out plainly: per plane, running Double sums across each row (add the
    /// column entering, then subtract the one leaving), Float sums, running Double sums down the
    /// columns, divided by the window's area inside the frame.
    static func plainMeans(_ values: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        var across = [Float](repeating: 0, count: values.count)
        for y in 0..<height {
            var sum = 0.0
            for x in 0...min(radius, width - 1) { sum += Double(values[y * width + x]) }
            for x in 0..<width {
                across[y * width + x] = Float(sum)
                if x + radius + 1 < width { sum += Double(values[y * width + x + radius + 1]) }
                if x >= radius { sum -= Double(values[y * width + x - radius]) }
            }
        }
        var means = [Float](repeating: 0, count: values.count)
        var sums = [Double](repeating: 0, count: width)
        for y in 0...min(radius, height - 1) {
            for x in 0..<width { sums[x] += Double(across[y * width + x]) }
        }
        for y in 0..<height {
            let rows = Double(min(height, y + radius + 1) - max(0, y - radius))
            for x in 0..<width {
                let columns = Double(min(width, x + radius + 1) - max(0, x - radius))
                means[y * width + x] = Float(sums[x] / (rows * columns))
            }
            if y + radius + 1 < height {
                for x in 0..<width { sums[x] += Double(across[(y + radius + 1) * width + x]) }
            }
            if y >= radius {
                for x in 0..<width { sums[x] -= Double(across[(y - radius) * width + x]) }
            }
        }
        return means
    }

    @Test(arguments: [(1, 1, 0), (9, 6, 2), (33, 21, 5), (12, 40, 15), (70, 9, 30)])
    func meansAreThePlainRunningSumsBitForBit(width: Int, height: Int, radius: Int) {
        var random = MaskCleanupTests.Random(state: UInt64(7 * width + height))
        // Values of every size, down to ones whose low bits a Double sum of larger ones rounds off.
        let planes = (0..<7).map { plane in
            Self.plane(width * height, random: &random).map { $0 * Float(sign: .plus, exponent: -4 * plane, significand: 1) }
        }.map { plane in plane.map { $0 * Float(sign: .plus, exponent: -Int($0.bitPattern % 37), significand: 1) } }
        for count in [1, 4, 7] {
            let together = Self.meansTogether(Array(planes.prefix(count)), width: width, height: height, radius: radius)
            for plane in 0..<count {
                #expect(together[plane] == Self.plainMeans(planes[plane], width: width, height: height, radius: radius), "\(count) planes")
            }
        }
    }

    @Test func everyKernelPathGivesTheScalarPathsFloats() {
        var random = MaskCleanupTests.Random(state: 3)
        let width = 53, planes = 7, radius = 6
        let source = (0..<planes).flatMap { plane in
            Self.plane(width, random: &random).map { $0 * Float(sign: .plus, exponent: -3 * plane, significand: 1) }
        }
        let other = Self.plane(8 * width, random: &random)
        let columns = (0..<width).map { Double(1 + $0 % 9) }
        /// Window sums, updated column sums, means and edge estimates on path `kernels`.
        func run(_ kernels: ConvolutionKernels) -> [[UInt64]] {
            var results: [[UInt64]] = []
            func bits(_ values: [Float]) -> [UInt64] { values.map { UInt64($0.bitPattern) } }
            for lanes in [4, 8] {
                let used = min(planes, lanes)
                var interleaved = [Float](repeating: 0, count: lanes * width), sums = interleaved
                sk_box_sums_across_with(kernels.rawValue, source, Int32(used), Int32(lanes), Int32(width), Int32(radius), &interleaved, &sums)
                var columnSums = other.prefix(lanes * width).map { Double($0) * 40 }
                sk_box_column_update_with(kernels.rawValue, &columnSums, sums, Array(other.prefix(lanes * width)), lanes * width)
                sk_box_column_update_with(kernels.rawValue, &columnSums, nil, sums, lanes * width)
                var means = [Float](repeating: 0, count: used * width)
                sk_box_means_with(kernels.rawValue, columnSums, Int32(used), Int32(lanes), Int32(width), 3, Int32(width - 2), 7, columns, &means)
                results += [bits(sums), columnSums.map(\.bitPattern), bits(means)]
            }
            // Alpha with its ends 0 and 1, a blurred alpha down to nothing.
            let alpha: [Float] = (0..<width).map { x -> Float in x % 5 == 0 ? 0 : x % 5 == 1 ? 1 : other[x] }
            let blurred: [Float] = (0..<width).map { x -> Float in x % 7 == 0 ? 1e-6 : x % 7 == 1 ? 1 : other[width + x] }
            var foreground = [Float](repeating: 0, count: width), background = foreground
            sk_edge_estimates_with(kernels.rawValue, Int32(width), alpha, blurred, Array(other[(2 * width)...]), Array(other[(3 * width)...]),
                                   Array(other[(4 * width)...]), &foreground, &background)
            results += [bits(foreground), bits(background)]
            sk_edge_estimates_with(kernels.rawValue, Int32(width), alpha, blurred, Array(other[(2 * width)...]), Array(other[(3 * width)...]),
                                   Array(other[(4 * width)...]), &foreground, nil)
            return results + [bits(foreground)]
        }
        let scalar = run(.scalar)
        for kernels in ConvolutionKernels.supported where kernels != .scalar {
            let results = run(kernels)
            for (index, (path, reference)) in zip(results, scalar).enumerated() {
                #expect(path == reference, "\(kernels), result \(index)")
            }
        }
    }

    /// Every path's means are the division's floats, for window areas a frame can cut, sums of
    /// every size and every count of planes (each count has its own copy of the loop).
    @Test func meansAreTheDivisionsQuotientsOnEveryPath() {
        var random = MaskCleanupTests.Random(state: 17)
        let width = 4099
        // Runs of one width (a row's interior) between single other ones (its ends).
        let columns = (0..<width).map { x in Double(x % 97 < 60 ? 61 : 1 + random.next(129)) }
        for lanes in [4, 8] {
            let sums = (0..<lanes * width).map { index -> Double in
                let scale = Double(sign: .plus, exponent: random.next(60) - 40, significand: 1)
                let whole = Double(random.next(1 << 30)), fraction = Double(Float(random.next(1 << 24)) / 16_777_216)
                return index % 3 == 0 ? whole : (whole + fraction) * scale
            }
            for rowsIn in [1.0, 2, 7, 61, 129] {
                var expected = [Float](repeating: 0, count: lanes * width)
                for x in 0..<width {
                    for plane in 0..<lanes { expected[plane * width + x] = Float(sums[x * lanes + plane] / (rowsIn * columns[x])) }
                }
                for kernels in ConvolutionKernels.supported {
                    for planes in 1...lanes {
                        var means = [Float](repeating: -1, count: lanes * width)
                        sk_box_means_with(kernels.rawValue, sums, Int32(planes), Int32(lanes), Int32(width), 0, Int32(width), rowsIn, columns, &means)
                        #expect(means.prefix(planes * width).map(\.bitPattern) == expected.prefix(planes * width).map(\.bitPattern),
                                "\(kernels), \(planes) of \(lanes) lanes, \(rowsIn) rows")
                        #expect(means.dropFirst(planes * width).allSatisfy { $0 == -1 })
                    }
                }
            }
        }
    }

    /// Two rows' window sums worked out together are each row's alone, on every path.
    @Test func rowPairsSumAsSingleRows() {
        var random = MaskCleanupTests.Random(state: 29)
        for (width, radius) in [(1, 0), (5, 2), (9, 12), (301, 7), (301, 200)] {
            for lanes in [4, 8] {
                let planes = lanes - 1
                let first = Self.plane(planes * width, random: &random), second = Self.plane(planes * width, random: &random).map { $0 * 1e-3 }
                for kernels in ConvolutionKernels.supported {
                    var interleaved = [Float](repeating: 0, count: lanes * width), alone = [[Float]]()
                    for row in [first, second] {
                        var sums = [Float](repeating: 0, count: lanes * width)
                        sk_box_sums_across_with(kernels.rawValue, row, Int32(planes), Int32(lanes), Int32(width), Int32(radius), &interleaved, &sums)
                        alone.append(sums)
                    }
                    var interleavedB = interleaved, sumsA = [Float](repeating: 0, count: lanes * width), sumsB = sumsA
                    sk_box_sums_across_pair_with(kernels.rawValue, first, second, Int32(planes), Int32(lanes), Int32(width), Int32(radius),
                                                 &interleaved, &interleavedB, &sumsA, &sumsB)
                    #expect(sumsA.map(\.bitPattern) == alone[0].map(\.bitPattern) && sumsB.map(\.bitPattern) == alone[1].map(\.bitPattern),
                            "\(kernels), width \(width), radius \(radius), \(lanes) lanes")
                }
            }
        }
    }
}
