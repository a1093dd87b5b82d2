import Testing
@testable import Processing

/// Box means: windows cut at the frame, several planes at once giving each plane's own result.
@Suite struct BoxFilterTests {
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

    @Test func planesFilteredTogetherMatchEachAlone() {
        var random = MaskCleanupTests.Random(state: 11)
        let width = 37, height = 23, radius = 4
        let planes = (0..<8).map { _ in Self.plane(width * height, random: &random) }
        for count in 1...8 {
            var together = [[Float]](repeating: [Float](repeating: 0, count: width * height), count: count)
            BoxFilter.means(planes: count, width: width, height: height, radius: radius) { y, rows in
                for plane in 0..<count {
                    for x in 0..<width { rows[plane * width + x] = planes[plane][y * width + x] }
                }
            } emit: { y, means in
                for plane in 0..<count {
                    for x in 0..<width { together[plane][y * width + x] = means[plane * width + x] }
                }
            }
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
        let wanted = (0..<height).map { $0 % 3 == 1 || $0 == height - 1 }
        var emitted: [Int] = []
        BoxFilter.means(planes: 1, width: width, height: height, radius: radius, wanted: wanted) { y, row in
            for x in 0..<width { row[x] = values[y * width + x] }
        } emit: { y, means in
            emitted.append(y)
            #expect((0..<width).map { means[$0] } == Array(all[(y * width)..<((y + 1) * width)]), "row \(y)")
        }
        #expect(emitted == (0..<height).filter { wanted[$0] })
    }
}
