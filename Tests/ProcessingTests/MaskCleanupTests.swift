import Testing
@testable import Processing

/// The fast clean-up (run labelling, a 2 px disc dilation) must decide exactly as the plain
/// definition does: pixel flood fills and a Euclidean distance transform.
@Suite(.timeLimit(.minutes(15))) struct MaskCleanupTests {
    /// SplitMix64: the same random masks on every run.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// Blobs, specks, holes and soft values: rectangles of random values over random noise.
    static func randomMask(width: Int, height: Int, random: inout Random) -> [UInt8] {
        var mask = (0..<width * height).map { _ in random.next(10) == 0 ? UInt8(random.next(256)) : 0 }
        for _ in 0..<random.next(12) {
            let x0 = random.next(width), y0 = random.next(height)
            let x1 = min(width, x0 + 1 + random.next(max(1, width / 2))), y1 = min(height, y0 + 1 + random.next(max(1, height / 2)))
            let value = [0, 255, UInt8(random.next(256))][random.next(3)]
            for y in y0..<y1 { for x in x0..<x1 { mask[y * width + x] = value } }
        }
        // Small holes and specks, 1 to 6 pixels: the sizes `grain` decides on.
        for _ in 0..<random.next(20) {
            let x0 = random.next(width), y0 = random.next(height), value: UInt8 = random.next(2) == 0 ? 0 : 255
            for y in y0..<min(height, y0 + 1 + random.next(2)) { for x in x0..<min(width, x0 + 1 + random.next(3)) { mask[y * width + x] = value } }
        }
        return mask
    }

    /// Connected components by flood fill: a label per pixel (-1 outside the set) and the areas.
    static func floodFill(_ set: [Bool], width: Int, height: Int, eightConnected: Bool) -> (labels: [Int], areas: [Int]) {
        var labels = [Int](repeating: -1, count: set.count), areas: [Int] = []
        for start in set.indices where set[start] && labels[start] < 0 {
            var stack = [start], area = 0
            labels[start] = areas.count
            while let index = stack.popLast() {
                area += 1
                for dy in -1...1 {
                    for dx in -1...1 where (dx != 0 || dy != 0) && (eightConnected || dx == 0 || dy == 0) {
                        let x = index % width + dx, y = index / width + dy
                        guard x >= 0, y >= 0, x < width, y < height, set[y * width + x], labels[y * width + x] < 0 else { continue }
                        labels[y * width + x] = areas.count
                        stack.append(y * width + x)
                    }
                }
            }
            areas.append(area)
        }
        return (labels, areas)
    }

    /// `MaskCleanup.cleaned` as first written: its documented rules, pixel by pixel.
    static func reference(_ mask: [UInt8], width: Int, height: Int, grain: Int) -> [UInt8] {
        let (labels, areas) = floodFill(mask.map { $0 >= 128 }, width: width, height: height, eightConnected: true)
        guard let largest = areas.max() else { return [UInt8](repeating: 0, count: mask.count) }
        let kept = areas.map { $0 == largest || ($0 > grain && Double($0) >= 0.01 * Double(largest)) }
        let keep = labels.map { $0 >= 0 && kept[$0] }
        let near = DistanceTransform.distances(toSet: keep, width: width, height: height).map { $0 <= 2 }
        var result = mask.indices.map { near[$0] && (keep[$0] || labels[$0] < 0) ? mask[$0] : 0 }
        let (holes, holeAreas) = floodFill(result.map { $0 < 128 }, width: width, height: height, eightConnected: false)
        var framed = Set<Int>()
        for index in result.indices where holes[index] >= 0 {
            let x = index % width, y = index / width
            if x == 0 || y == 0 || x == width - 1 || y == height - 1 { framed.insert(holes[index]) }
        }
        for index in result.indices where holes[index] >= 0 && !framed.contains(holes[index]) && holeAreas[holes[index]] <= grain {
            result[index] = 255
        }
        return result
    }

    @Test func dilationByTwoEqualsTheDistanceTransformDisc() {
        var random = Random(state: 7)
        for (width, height) in [(1, 1), (1, 9), (9, 1), (2, 3), (17, 11), (64, 48)] {
            for density in [2, 10, 60] {
                let set = (0..<width * height).map { _ in random.next(density) == 0 }
                let expected = DistanceTransform.distances(toSet: set, width: width, height: height).map { $0 <= 2 }
                let dilated = MaskCleanup.dilatedByTwo(set.map { $0 ? 1 : 0 }, width: width, height: height)
                #expect(dilated.map { $0 == 1 } == expected, "\(width)x\(height), 1 in \(density)")
            }
        }
    }

    @Test func cleanupMatchesThePixelByPixelDefinition() {
        var random = Random(state: 20_261_123)
        for (width, height) in [(1, 1), (1, 30), (30, 1), (5, 4), (40, 30), (97, 61)] {
            for _ in 0..<25 {
                let mask = Self.randomMask(width: width, height: height, random: &random)
                let grain = [1, 2, 3, 4, 6, 30][random.next(6)]
                #expect(MaskCleanup.cleaned(mask, width: width, height: height, grain: grain)
                        == Self.reference(mask, width: width, height: height, grain: grain), "\(width)x\(height)")
            }
        }
    }

    @Test func runComponentsJoinDiagonalsOnlyWhenEightConnected() {
        // Two pixels touching at a corner, and a U whose arms meet only through the bottom row.
        let mask: [UInt8] = [
            255, 0, 0, 255, 0, 255,
            0, 255, 0, 255, 0, 255,
            0, 0, 0, 255, 255, 255,
        ]
        let eight = mask.withUnsafeBufferPointer { RunComponents($0, width: 6, height: 3, threshold: 128, below: false, eightConnected: true) }
        let four = mask.withUnsafeBufferPointer { RunComponents($0, width: 6, height: 3, threshold: 128, below: false, eightConnected: false) }
        #expect(eight.areas.sorted() == [2, 7])
        #expect(four.areas.sorted() == [1, 1, 7])
    }
}
