import Testing
@testable import Processing

/// The fast clean-up (run labelling, a 2 px disc dilation) must decide exactly as the plain
/// definition does: pixel flood fills and a Euclidean distance transform. And strays go, while a
/// subject's small pieces, a second subject and what an include point holds stay.
@Suite(.timeLimit(.minutes(15))) struct MaskCleanupTests {
    /// The same random masks on every run.
    typealias Random = SplitMix64

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
        var kept = areas.map { $0 == largest || ($0 > grain && Double($0) >= 0.01 * Double(largest)) }
        // Strays: small against the largest, never as sure as the peak, and farther than the reach
        // from every larger kept part.
        let small = areas.indices.map { kept[$0] && Double(areas[$0]) < MaskCleanup.strayFraction * Double(largest) }
        let anchors = labels.map { $0 >= 0 && kept[$0] && !small[$0] }
        var extent = 0
        for part in areas.indices where areas[part] == largest {
            let pixels = labels.indices.filter { labels[$0] == part }
            let xs = pixels.map { $0 % width }, ys = pixels.map { $0 / width }
            extent = max(extent, xs.max()! - xs.min()! + 1, ys.max()! - ys.min()! + 1)
        }
        let reach = Float(MaskCleanup.reachFraction * Double(extent))
        let fromAnchors = DistanceTransform.distances(toSet: anchors, width: width, height: height)
        for part in areas.indices where small[part] {
            let pixels = labels.indices.filter { labels[$0] == part }
            let sure = pixels.contains { mask[$0] >= MaskCleanup.strayPeak }
            kept[part] = sure || pixels.contains { fromAnchors[$0] <= reach }
        }
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

    /// A 60 x 60 subject in a 200 x 120 frame, with a 10 x 10 blob (under 3% of it) `gap` pixels to
    /// its right, as sure as `blob` (the network half-believing in a patch of grass: about 180).
    static func subjectAndBlob(gap: Int, blob: UInt8 = 180) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: 200 * 120)
        for y in 30..<90 { for x in 20..<80 { mask[y * 200 + x] = 255 } }
        for y in 55..<65 { for x in (80 + gap)..<(90 + gap) { mask[y * 200 + x] = blob } }
        return mask
    }

    static func blobIsKept(_ mask: [UInt8], gap: Int) -> Bool { mask[60 * 200 + 85 + gap] >= 128 }

    @Test func aSmallPartFarFromTheSubjectIsDropped() {
        // The subject is 60 px across, so the reach is 12 px: a weak blob 80 px off is a stray, one 6 px off a part.
        let far = Self.subjectAndBlob(gap: 80), near = Self.subjectAndBlob(gap: 6)
        #expect(!Self.blobIsKept(MaskCleanup.cleaned(far, width: 200, height: 120), gap: 80))
        #expect(Self.blobIsKept(MaskCleanup.cleaned(near, width: 200, height: 120), gap: 6))
        #expect(MaskCleanup.cleaned(far, width: 200, height: 120)[60 * 200 + 50] == 255, "the subject stays")
    }

    @Test func aSmallFarPartTheNetworkIsSureOfStays() {
        // The stones of a ruin, a car's light bar: as sure as the subject, so part of it.
        let far = Self.subjectAndBlob(gap: 80, blob: 255)
        #expect(Self.blobIsKept(MaskCleanup.cleaned(far, width: 200, height: 120), gap: 80))
    }

    @Test func anIncludePointKeepsAStray() {
        let far = Self.subjectAndBlob(gap: 80)
        #expect(Self.blobIsKept(MaskCleanup.cleaned(far, width: 200, height: 120, keeping: [60 * 200 + 165]), gap: 80))
    }

    @Test func aSecondSubjectOfSizeIsNoStray() {
        // Two subjects far apart, the second a third of the first: both are what the photo shows.
        var mask = [UInt8](repeating: 0, count: 200 * 120)
        for y in 30..<90 { for x in 10..<70 { mask[y * 200 + x] = 255 } }
        for y in 40..<75 { for x in 150..<185 { mask[y * 200 + x] = 255 } }
        let cleaned = MaskCleanup.cleaned(mask, width: 200, height: 120)
        #expect(cleaned[50 * 200 + 160] == 255 && cleaned[50 * 200 + 40] == 255)
    }

    @Test func smallPartsBesideTheSubjectStay() {
        // A letter with two dots above it (an umlaut): each dot 1.5% of the letter, 5 px above it.
        var mask = [UInt8](repeating: 0, count: 120 * 120)
        for y in 40..<110 { for x in 30..<90 { mask[y * 120 + x] = 255 } }
        for y in 28..<36 { for x in 38..<46 { mask[y * 120 + x] = 255 }; for x in 74..<82 { mask[y * 120 + x] = 255 } }
        let cleaned = MaskCleanup.cleaned(mask, width: 120, height: 120)
        #expect(cleaned[32 * 120 + 42] == 255 && cleaned[32 * 120 + 78] == 255)
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
