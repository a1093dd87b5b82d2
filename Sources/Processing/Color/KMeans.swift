/// Weighted k-means in Oklab over `PaletteSamples`: a greedy k-means++ start drawn from a constant-seeded
/// generator, then Lloyd iterations. Sums are accumulated in `Double` in sample order, so results are
/// reproducible bit for bit.
struct KMeans {
    let samples: PaletteSamples
    private(set) var centers: [(l: Float, a: Float, b: Float)] = []
    /// The cluster of each sample.
    private var assignment: [Int32]

    init(samples: PaletteSamples) {
        self.samples = samples
        self.assignment = [Int32](repeating: -1, count: samples.count)
    }

    /// Adds centres until there are `count`: each drawn with probability proportional to weight × squared
    /// distance to the nearest centre so far (the first, with none yet, by weight alone), keeping the best
    /// of a few draws (the one that lowers the total most). Stops early when every sample sits on a centre.
    mutating func addCenters(upTo count: Int) {
        var random = SplitMix64(seed: 0x5EED_C0105 &+ UInt64(centers.count))
        let n = samples.count
        var nearest = [Float](repeating: .greatestFiniteMagnitude, count: n)
        var candidateNearest = [Float](repeating: 0, count: n)
        var bestNearest = [Float](repeating: 0, count: n)
        for center in centers.indices {
            let c = centers[center]
            for i in 0..<n {
                let dl = samples.l[i] - c.l, da = samples.a[i] - c.a, db = samples.b[i] - c.b
                nearest[i] = min(nearest[i], dl * dl + da * da + db * db)
            }
        }
        let trials = 2 + Int(Double(count).squareRoot())
        while centers.count < count {
            let first = centers.isEmpty
            var potential = 0.0
            for i in 0..<n { potential += Double(samples.weight[i]) * Double(first ? 1 : nearest[i]) }
            guard potential > 0 else { return }
            var bestCost = Double.infinity
            var bestSample = 0
            for _ in 0..<(first ? 1 : trials) {
                let sample = pick(potential: potential, nearest: nearest, first: first, random: &random)
                let cost = distances(to: sample, nearest: nearest, into: &candidateNearest)
                if cost < bestCost {
                    bestCost = cost
                    bestSample = sample
                    swap(&bestNearest, &candidateNearest)
                }
            }
            centers.append((samples.l[bestSample], samples.a[bestSample], samples.b[bestSample]))
            swap(&nearest, &bestNearest)
        }
    }

    /// Replaces the centres (after merging).
    mutating func setCenters(_ clusters: [PaletteExtractor.Cluster]) {
        centers = clusters.map { (Float($0.color.l), Float($0.color.a), Float($0.color.b)) }
        assignment = [Int32](repeating: -1, count: samples.count)
    }

    /// A sample drawn with probability proportional to weight (first centre) or weight × `nearest`.
    private func pick(potential: Double, nearest: [Float], first: Bool, random: inout SplitMix64) -> Int {
        let target = random.nextUnit() * potential
        var running = 0.0
        for i in 0..<samples.count {
            running += Double(samples.weight[i]) * Double(first ? 1 : nearest[i])
            if running > target { return i }
        }
        // Rounding left the target past the end: the last sample with any mass.
        return (0..<samples.count).last { samples.weight[$0] > 0 && (first || nearest[$0] > 0) } ?? 0
    }

    /// Squared distances to the nearest centre if `sample` were added; returns the weighted total.
    private func distances(to sample: Int, nearest: [Float], into result: inout [Float]) -> Double {
        let cl = samples.l[sample], ca = samples.a[sample], cb = samples.b[sample]
        var cost = 0.0
        samples.l.withUnsafeBufferPointer { l in
            samples.a.withUnsafeBufferPointer { a in
                samples.b.withUnsafeBufferPointer { b in
                    samples.weight.withUnsafeBufferPointer { w in
                        result.withUnsafeMutableBufferPointer { out in
                            for i in 0..<out.count {
                                let dl = l[i] - cl, da = a[i] - ca, db = b[i] - cb
                                let d = min(dl * dl + da * da + db * db, nearest[i])
                                out[i] = d
                                cost += Double(w[i] * d)
                            }
                        }
                    }
                }
            }
        }
        return cost
    }

    /// Lloyd iterations until no sample changes cluster, or `limit` rounds. With `median`, each sample
    /// also weighs 1 / its distance to its centre (Weiszfeld's step): centres move towards their
    /// clusters' geometric medians, which lowers the mean (rather than the mean squared) difference.
    mutating func iterate(limit: Int, median: Bool = false) {
        let k = centers.count
        guard k > 0 else { return }
        for _ in 0..<limit {
            var sums = [Double](repeating: 0, count: k * 4)
            var changed = false
            var centerL = centers.map(\.l), centerA = centers.map(\.a), centerB = centers.map(\.b)
            samples.l.withUnsafeBufferPointer { l in
                samples.a.withUnsafeBufferPointer { a in
                    samples.b.withUnsafeBufferPointer { b in
                        samples.weight.withUnsafeBufferPointer { w in
                            assignment.withUnsafeMutableBufferPointer { assigned in
                                centerL.withUnsafeMutableBufferPointer { cl in
                                    centerA.withUnsafeMutableBufferPointer { ca in
                                        centerB.withUnsafeMutableBufferPointer { cb in
                                            for i in 0..<assigned.count {
                                                var best: Int32 = 0
                                                var bestDistance = Float.greatestFiniteMagnitude
                                                for c in 0..<k {
                                                    let dl = l[i] - cl[c], da = a[i] - ca[c], db = b[i] - cb[c]
                                                    let d = dl * dl + da * da + db * db
                                                    if d < bestDistance {
                                                        bestDistance = d
                                                        best = Int32(c)
                                                    }
                                                }
                                                if assigned[i] != best {
                                                    assigned[i] = best
                                                    changed = true
                                                }
                                                let slot = Int(best) * 4
                                                let weight = median ? Double(w[i]) / Double(max(bestDistance.squareRoot(), 1e-4)) : Double(w[i])
                                                sums[slot] += weight
                                                sums[slot + 1] += weight * Double(l[i])
                                                sums[slot + 2] += weight * Double(a[i])
                                                sums[slot + 3] += weight * Double(b[i])
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            for c in 0..<k where sums[c * 4] > 0 {
                let weight = sums[c * 4]
                centers[c] = (Float(sums[c * 4 + 1] / weight), Float(sums[c * 4 + 2] / weight), Float(sums[c * 4 + 3] / weight))
            }
            if !changed && !median { break }
        }
    }

    /// Each centre with the total weight of its samples (as last assigned).
    func clusters() -> [PaletteExtractor.Cluster] {
        var totals = [Double](repeating: 0, count: centers.count)
        for i in 0..<samples.count where assignment[i] >= 0 {
            totals[Int(assignment[i])] += Double(samples.weight[i])
        }
        return centers.indices.map { c in
            .init(color: OklabColor(l: Double(centers[c].l), a: Double(centers[c].a), b: Double(centers[c].b)), weight: totals[c])
        }
    }
}

/// A small, fast generator with a fixed seed (Steele, Lea and Flood's SplitMix64): the k-means++ draws are
/// the same on every run and platform.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D4_9BB9_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
